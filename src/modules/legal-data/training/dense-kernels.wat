;; The contrastive fine-tuning's dense products (contrastive.ts), four floats at a time (WebAssembly
;; SIMD): they are most of a training step. Rows are `dim` float32 values (dim a multiple of 4),
;; pointers are byte offsets into the imported memory. `npm run build:wasm` compiles this file
;; into dense-kernels.wasm.ts; a test checks the two agree.
(module
  (import "env" "memory" (memory 1))

  ;; out[i * B + j] = scale * (a_i . p_j), for the rows i in [from, to) and every j < B.
  (func (export "similarities")
    (param $a i32) (param $p i32) (param $out i32) (param $B i32) (param $dim i32) (param $scale f32) (param $from i32) (param $to i32)
    (local $i i32) (local $j i32) (local $d i32) (local $ai i32) (local $pj i32) (local $rowBytes i32)
    (local $acc0 v128) (local $acc1 v128) (local $sum v128)
    (local.set $rowBytes (i32.shl (local.get $dim) (i32.const 2)))
    (local.set $i (local.get $from))
    (block $doneI
      (loop $nextI
        (br_if $doneI (i32.ge_u (local.get $i) (local.get $to)))
        (local.set $ai (i32.add (local.get $a) (i32.mul (local.get $i) (local.get $rowBytes))))
        (local.set $j (i32.const 0))
        (block $doneJ
          (loop $nextJ
            (br_if $doneJ (i32.ge_u (local.get $j) (local.get $B)))
            (local.set $pj (i32.add (local.get $p) (i32.mul (local.get $j) (local.get $rowBytes))))
            (local.set $acc0 (v128.const f32x4 0 0 0 0))
            (local.set $acc1 (v128.const f32x4 0 0 0 0))
            (local.set $d (i32.const 0))
            ;; two accumulators, eight floats a turn, then the last four if dim is not a multiple of 8
            (block $doneD
              (loop $nextD
                (br_if $doneD (i32.gt_u (i32.add (local.get $d) (i32.const 32)) (local.get $rowBytes)))
                (local.set $acc0 (f32x4.add (local.get $acc0)
                  (f32x4.mul (v128.load (i32.add (local.get $ai) (local.get $d))) (v128.load (i32.add (local.get $pj) (local.get $d))))))
                (local.set $acc1 (f32x4.add (local.get $acc1)
                  (f32x4.mul (v128.load offset=16 (i32.add (local.get $ai) (local.get $d))) (v128.load offset=16 (i32.add (local.get $pj) (local.get $d))))))
                (local.set $d (i32.add (local.get $d) (i32.const 32)))
                (br $nextD)))
            (if (i32.lt_u (local.get $d) (local.get $rowBytes))
              (then
                (local.set $acc0 (f32x4.add (local.get $acc0)
                  (f32x4.mul (v128.load (i32.add (local.get $ai) (local.get $d))) (v128.load (i32.add (local.get $pj) (local.get $d))))))))
            (local.set $sum (f32x4.add (local.get $acc0) (local.get $acc1)))
            (f32.store
              (i32.add (local.get $out) (i32.shl (i32.add (i32.mul (local.get $i) (local.get $B)) (local.get $j)) (i32.const 2)))
              (f32.mul (local.get $scale)
                (f32.add
                  (f32.add (f32x4.extract_lane 0 (local.get $sum)) (f32x4.extract_lane 1 (local.get $sum)))
                  (f32.add (f32x4.extract_lane 2 (local.get $sum)) (f32x4.extract_lane 3 (local.get $sum))))))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $nextJ)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $nextI))))

  ;; out_o = sum over k < n of g[o * gOut + k * gIn] * x_k, for the rows o in [from, to) (rows of
  ;; `dim` floats; a zero weight is skipped): dL/da = G P with (gOut, gIn) = (B, 1), dL/dp = G^T A
  ;; with (1, B).
  (func (export "combine")
    (param $g i32) (param $gOut i32) (param $gIn i32) (param $x i32) (param $out i32) (param $n i32) (param $dim i32) (param $from i32) (param $to i32)
    (local $o i32) (local $k i32) (local $d i32) (local $orow i32) (local $xk i32) (local $rowBytes i32) (local $s f32) (local $sv v128)
    (local.set $rowBytes (i32.shl (local.get $dim) (i32.const 2)))
    (local.set $o (local.get $from))
    (block $doneO
      (loop $nextO
        (br_if $doneO (i32.ge_u (local.get $o) (local.get $to)))
        (local.set $orow (i32.add (local.get $out) (i32.mul (local.get $o) (local.get $rowBytes))))
        (local.set $d (i32.const 0))
        (block $zeroed
          (loop $zero
            (br_if $zeroed (i32.ge_u (local.get $d) (local.get $rowBytes)))
            (v128.store (i32.add (local.get $orow) (local.get $d)) (v128.const f32x4 0 0 0 0))
            (local.set $d (i32.add (local.get $d) (i32.const 16)))
            (br $zero)))
        (local.set $k (i32.const 0))
        (block $doneK
          (loop $nextK
            (br_if $doneK (i32.ge_u (local.get $k) (local.get $n)))
            (local.set $s (f32.load (i32.add (local.get $g)
              (i32.shl (i32.add (i32.mul (local.get $o) (local.get $gOut)) (i32.mul (local.get $k) (local.get $gIn))) (i32.const 2)))))
            (if (f32.ne (local.get $s) (f32.const 0))
              (then
                (local.set $sv (f32x4.splat (local.get $s)))
                (local.set $xk (i32.add (local.get $x) (i32.mul (local.get $k) (local.get $rowBytes))))
                (local.set $d (i32.const 0))
                (block $doneD
                  (loop $nextD
                    (br_if $doneD (i32.ge_u (local.get $d) (local.get $rowBytes)))
                    (v128.store (i32.add (local.get $orow) (local.get $d))
                      (f32x4.add (v128.load (i32.add (local.get $orow) (local.get $d)))
                        (f32x4.mul (local.get $sv) (v128.load (i32.add (local.get $xk) (local.get $d))))))
                    (local.set $d (i32.add (local.get $d) (i32.const 16)))
                    (br $nextD)))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $nextK)))
        (local.set $o (i32.add (local.get $o) (i32.const 1)))
        (br $nextO))))
)
