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
;; A text's embedding: out = sum of weights[t] * table_t over its `count` tokens (i32 at
  ;; `tokens`), then L2-normalised; returns the norm before normalising (0: out stays zero).
  (func (export "embed")
    (param $tokens i32) (param $count i32) (param $weights i32) (param $table i32) (param $out i32) (param $dim i32) (result f32)
    (local $k i32) (local $d i32) (local $t i32) (local $row i32) (local $rowBytes i32) (local $wv v128) (local $acc v128) (local $norm f32)
    (local.set $rowBytes (i32.shl (local.get $dim) (i32.const 2)))
    (local.set $d (i32.const 0))
    (block $zeroed
      (loop $zero
        (br_if $zeroed (i32.ge_u (local.get $d) (local.get $rowBytes)))
        (v128.store (i32.add (local.get $out) (local.get $d)) (v128.const f32x4 0 0 0 0))
        (local.set $d (i32.add (local.get $d) (i32.const 16)))
        (br $zero)))
    (local.set $k (i32.const 0))
    (block $doneK
      (loop $nextK
        (br_if $doneK (i32.ge_u (local.get $k) (local.get $count)))
        (local.set $t (i32.load (i32.add (local.get $tokens) (i32.shl (local.get $k) (i32.const 2)))))
        (local.set $wv (f32x4.splat (f32.load (i32.add (local.get $weights) (i32.shl (local.get $t) (i32.const 2))))))
        (local.set $row (i32.add (local.get $table) (i32.mul (local.get $t) (local.get $rowBytes))))
        (local.set $d (i32.const 0))
        (block $doneD
          (loop $nextD
            (br_if $doneD (i32.ge_u (local.get $d) (local.get $rowBytes)))
            (v128.store (i32.add (local.get $out) (local.get $d))
              (f32x4.add (v128.load (i32.add (local.get $out) (local.get $d)))
                (f32x4.mul (local.get $wv) (v128.load (i32.add (local.get $row) (local.get $d))))))
            (local.set $d (i32.add (local.get $d) (i32.const 16)))
            (br $nextD)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $nextK)))
    (local.set $acc (v128.const f32x4 0 0 0 0))
    (local.set $d (i32.const 0))
    (block $doneN
      (loop $nextN
        (br_if $doneN (i32.ge_u (local.get $d) (local.get $rowBytes)))
        (local.set $wv (v128.load (i32.add (local.get $out) (local.get $d))))
        (local.set $acc (f32x4.add (local.get $acc) (f32x4.mul (local.get $wv) (local.get $wv))))
        (local.set $d (i32.add (local.get $d) (i32.const 16)))
        (br $nextN)))
    (local.set $norm (f32.sqrt (f32.add
      (f32.add (f32x4.extract_lane 0 (local.get $acc)) (f32x4.extract_lane 1 (local.get $acc)))
      (f32.add (f32x4.extract_lane 2 (local.get $acc)) (f32x4.extract_lane 3 (local.get $acc))))))
    (if (f32.gt (local.get $norm) (f32.const 0))
      (then
        (local.set $wv (f32x4.splat (local.get $norm)))
        (local.set $d (i32.const 0))
        (block $doneS
          (loop $nextS
            (br_if $doneS (i32.ge_u (local.get $d) (local.get $rowBytes)))
            (v128.store (i32.add (local.get $out) (local.get $d)) (f32x4.div (v128.load (i32.add (local.get $out) (local.get $d))) (local.get $wv)))
            (local.set $d (i32.add (local.get $d) (i32.const 16)))
            (br $nextS)))))
    (local.get $norm))

  ;; Back through a text's normalisation and sum: du = (du - u (u . du)) / norm in place, then
  ;; grad_t += weights[t] * du for each of its `count` tokens, each marked in `touched` (bytes).
  (func (export "backprop")
    (param $u i32) (param $du i32) (param $norm f32) (param $tokens i32) (param $count i32) (param $weights i32) (param $grad i32) (param $touched i32) (param $dim i32)
    (local $k i32) (local $d i32) (local $t i32) (local $row i32) (local $rowBytes i32) (local $acc v128) (local $dotv v128) (local $normv v128) (local $wv v128)
    (local.set $rowBytes (i32.shl (local.get $dim) (i32.const 2)))
    (local.set $acc (v128.const f32x4 0 0 0 0))
    (local.set $d (i32.const 0))
    (block $doneDot
      (loop $nextDot
        (br_if $doneDot (i32.ge_u (local.get $d) (local.get $rowBytes)))
        (local.set $acc (f32x4.add (local.get $acc)
          (f32x4.mul (v128.load (i32.add (local.get $u) (local.get $d))) (v128.load (i32.add (local.get $du) (local.get $d))))))
        (local.set $d (i32.add (local.get $d) (i32.const 16)))
        (br $nextDot)))
    (local.set $dotv (f32x4.splat (f32.add
      (f32.add (f32x4.extract_lane 0 (local.get $acc)) (f32x4.extract_lane 1 (local.get $acc)))
      (f32.add (f32x4.extract_lane 2 (local.get $acc)) (f32x4.extract_lane 3 (local.get $acc))))))
    (local.set $normv (f32x4.splat (local.get $norm)))
    (local.set $d (i32.const 0))
    (block $doneP
      (loop $nextP
        (br_if $doneP (i32.ge_u (local.get $d) (local.get $rowBytes)))
        (v128.store (i32.add (local.get $du) (local.get $d))
          (f32x4.div
            (f32x4.sub (v128.load (i32.add (local.get $du) (local.get $d))) (f32x4.mul (v128.load (i32.add (local.get $u) (local.get $d))) (local.get $dotv)))
            (local.get $normv)))
        (local.set $d (i32.add (local.get $d) (i32.const 16)))
        (br $nextP)))
    (local.set $k (i32.const 0))
    (block $doneK
      (loop $nextK
        (br_if $doneK (i32.ge_u (local.get $k) (local.get $count)))
        (local.set $t (i32.load (i32.add (local.get $tokens) (i32.shl (local.get $k) (i32.const 2)))))
        (i32.store8 (i32.add (local.get $touched) (local.get $t)) (i32.const 1))
        (local.set $wv (f32x4.splat (f32.load (i32.add (local.get $weights) (i32.shl (local.get $t) (i32.const 2))))))
        (local.set $row (i32.add (local.get $grad) (i32.mul (local.get $t) (local.get $rowBytes))))
        (local.set $d (i32.const 0))
        (block $doneD
          (loop $nextD
            (br_if $doneD (i32.ge_u (local.get $d) (local.get $rowBytes)))
            (v128.store (i32.add (local.get $row) (local.get $d))
              (f32x4.add (v128.load (i32.add (local.get $row) (local.get $d)))
                (f32x4.mul (local.get $wv) (v128.load (i32.add (local.get $du) (local.get $d))))))
            (local.set $d (i32.add (local.get $d) (i32.const 16)))
            (br $nextD)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $nextK))))

  ;; Row-wise Adagrad for the touched rows among a text's `count` tokens: accum[t] += mean(grad_t^2),
  ;; table_t -= rate / (sqrt(accum[t]) + 1e-8) * grad_t, then grad_t and its mark cleared.
  (func (export "update")
    (param $tokens i32) (param $count i32) (param $grad i32) (param $table i32) (param $accum i32) (param $touched i32) (param $dim i32) (param $rate f32)
    (local $k i32) (local $d i32) (local $t i32) (local $g i32) (local $w i32) (local $rowBytes i32) (local $acc v128) (local $gv v128) (local $stepv v128) (local $at i32) (local $sum f32)
    (local.set $rowBytes (i32.shl (local.get $dim) (i32.const 2)))
    (local.set $k (i32.const 0))
    (block $doneK
      (loop $nextK
        (br_if $doneK (i32.ge_u (local.get $k) (local.get $count)))
        (local.set $t (i32.load (i32.add (local.get $tokens) (i32.shl (local.get $k) (i32.const 2)))))
        (if (i32.load8_u (i32.add (local.get $touched) (local.get $t)))
          (then
            (i32.store8 (i32.add (local.get $touched) (local.get $t)) (i32.const 0))
            (local.set $g (i32.add (local.get $grad) (i32.mul (local.get $t) (local.get $rowBytes))))
            (local.set $w (i32.add (local.get $table) (i32.mul (local.get $t) (local.get $rowBytes))))
            (local.set $acc (v128.const f32x4 0 0 0 0))
            (local.set $d (i32.const 0))
            (block $doneSq
              (loop $nextSq
                (br_if $doneSq (i32.ge_u (local.get $d) (local.get $rowBytes)))
                (local.set $gv (v128.load (i32.add (local.get $g) (local.get $d))))
                (local.set $acc (f32x4.add (local.get $acc) (f32x4.mul (local.get $gv) (local.get $gv))))
                (local.set $d (i32.add (local.get $d) (i32.const 16)))
                (br $nextSq)))
            (local.set $sum (f32.add
              (f32.add (f32x4.extract_lane 0 (local.get $acc)) (f32x4.extract_lane 1 (local.get $acc)))
              (f32.add (f32x4.extract_lane 2 (local.get $acc)) (f32x4.extract_lane 3 (local.get $acc)))))
            (local.set $at (i32.add (local.get $accum) (i32.shl (local.get $t) (i32.const 2))))
            (f32.store (local.get $at) (f32.add (f32.load (local.get $at)) (f32.div (local.get $sum) (f32.convert_i32_u (local.get $dim)))))
            (local.set $stepv (f32x4.splat (f32.div (local.get $rate) (f32.add (f32.sqrt (f32.load (local.get $at))) (f32.const 1e-8)))))
            (local.set $d (i32.const 0))
            (block $doneU
              (loop $nextU
                (br_if $doneU (i32.ge_u (local.get $d) (local.get $rowBytes)))
                (local.set $gv (v128.load (i32.add (local.get $g) (local.get $d))))
                (v128.store (i32.add (local.get $w) (local.get $d))
                  (f32x4.sub (v128.load (i32.add (local.get $w) (local.get $d))) (f32x4.mul (local.get $stepv) (local.get $gv))))
                (v128.store (i32.add (local.get $g) (local.get $d)) (v128.const f32x4 0 0 0 0))
                (local.set $d (i32.add (local.get $d) (i32.const 16)))
                (br $nextU)))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $nextK))))
)
