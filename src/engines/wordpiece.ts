/**
 * The trained model's tokenizer: a WordPiece vocabulary learnt from corpus counts, with the
 * normaliser and pre-tokeniser of BERT (clean text, CJK characters split, lower case, accents
 * stripped; words split at whitespace and punctuation). The same vocabulary is written as a
 * Hugging Face `tokenizer.json` (see `tokenizerJson`), which the `static` embedder loads with
 * `@huggingface/tokenizers`; the functions here mirror that tokenizer so that training sees
 * the token ids the embedder will produce at search time (a test checks they agree).
 */

export const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;
export const UNK_ID = 1;
const PREFIX = '##';
const MAX_WORD_CHARS = 100;

const CONTROL = /[\u0000\uFFFD\p{Cc}\p{Cf}\p{Co}\p{Cs}]/gu;
const CJK = /([\u4E00-\u9FFF\u3400-\u4DBF\uF900-\uFAFF]|[\u{20000}-\u{2A6DF}\u{2A700}-\u{2B73F}\u{2B740}-\u{2B81F}\u{2B820}-\u{2CEAF}\u{2F800}-\u{2FA1F}])/gu;
const MARKS = /\p{Mn}/gu;
const PUNCT = '\\p{P}\\u0021-\\u002F\\u003A-\\u0040\\u005B-\\u0060\\u007B-\\u007E';
const WORDS = new RegExp(`[^\\s${PUNCT}]+|[${PUNCT}]`, 'gu');

/** BERT normalisation as `BertNormalizer` (clean_text, handle_chinese_chars, lowercase, strip_accents) applies it. */
export function normalizeText(text: string): string {
  return text
    .replace(/[\t\n\r]/g, ' ')
    .replace(CONTROL, '')
    .replace(/\s/g, ' ')
    .replace(CJK, ' $1 ')
    .toLowerCase()
    .normalize('NFD')
    .replace(MARKS, '');
}

/** Words of a normalised text, as `BertPreTokenizer` splits them. */
export function preTokenize(normalized: string): string[] {
  return normalized.trim().match(WORDS) ?? [];
}

/** Words of a raw text (normalised, then split). */
export function textWords(text: string): string[] {
  return preTokenize(normalizeText(text));
}

/** Greedy longest-match-first WordPiece encoding with a per-word cache (of at most `cacheWords` words: the first seen). */
export class WordPieceEncoder {
  readonly ids: Map<string, number>;
  private readonly cache = new Map<string, number[]>();

  constructor(
    readonly vocab: string[],
    private readonly cacheWords = 2_000_000,
  ) {
    this.ids = new Map(vocab.map((t, i) => [t, i]));
  }

  /** Token ids of one word (a single unknown-token id when it cannot be pieced together). */
  encodeWord(word: string): number[] {
    const cached = this.cache.get(word);
    if (cached) return cached;
    const chars = [...word];
    let out: number[];
    if (chars.length > MAX_WORD_CHARS) out = [UNK_ID];
    else {
      out = [];
      let start = 0;
      while (start < chars.length) {
        let end = chars.length;
        let found = -1;
        while (start < end) {
          const piece = (start > 0 ? PREFIX : '') + chars.slice(start, end).join('');
          const id = this.ids.get(piece);
          if (id !== undefined) {
            found = id;
            break;
          }
          end--;
        }
        if (found < 0) {
          out = [UNK_ID];
          break;
        }
        out.push(found);
        start = end;
      }
    }
    if (this.cache.size < this.cacheWords) this.cache.set(word, out);
    return out;
  }

  /** Token ids of a raw text, without unknown tokens, at most `max` of them. */
  encode(text: string, max = Infinity): number[] {
    const out: number[] = [];
    for (const word of textWords(text)) {
      for (const id of this.encodeWord(word)) {
        if (id === UNK_ID) continue;
        out.push(id);
        if (out.length >= max) return out;
      }
    }
    return out;
  }
}

export interface VocabularyOptions {
  /** Total tokens, special tokens and pieces included. */
  size: number;
  /** Whole words need this many occurrences. */
  minCount: number;
  /** Share of the vocabulary given to sub-word pieces (prefixes and `##` suffixes). */
  pieceShare?: number;
}

const byCount = (a: [string, number], b: [string, number]) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/**
 * A WordPiece vocabulary from word counts: the special tokens, every character seen often
 * enough (alone and as `##c`, so almost nothing is unknown), the most frequent pieces of the
 * words left out (prefixes of 2–8 characters, `##` suffixes of 1–8), then the most frequent
 * whole words. Deterministic: ties are broken by the string.
 */
export function buildVocabulary(wordCounts: Map<string, number>, options: VocabularyOptions): string[] {
  const vocab: string[] = [...SPECIAL_TOKENS];
  const seen = new Set<string>(vocab);
  const add = (t: string) => {
    if (seen.has(t)) return;
    seen.add(t);
    vocab.push(t);
  };
  const sorted = [...wordCounts].filter(([, c]) => c >= options.minCount).sort(byCount);
  const chars = new Map<string, number>();
  for (const [w, c] of wordCounts) for (const ch of w) chars.set(ch, (chars.get(ch) ?? 0) + c);
  const charList = [...chars].filter(([, c]) => c >= options.minCount).sort(byCount);
  for (const [ch] of charList) add(ch);
  for (const [ch] of charList) add(PREFIX + ch);

  const pieceBudget = Math.floor(options.size * (options.pieceShare ?? 0.15));
  const wordBudget = Math.max(0, options.size - vocab.length - pieceBudget);
  const words = sorted.slice(0, wordBudget);
  const inVocab = new Set(words.map(([w]) => w));
  const pieces = new Map<string, number>();
  for (const [w, c] of wordCounts) {
    if (inVocab.has(w)) continue;
    const chs = [...w];
    if (chs.length < 4 || chs.length > MAX_WORD_CHARS) continue;
    for (let n = 2; n <= Math.min(8, chs.length - 1); n++) {
      const p = chs.slice(0, n).join('');
      pieces.set(p, (pieces.get(p) ?? 0) + c);
      const s = PREFIX + chs.slice(chs.length - n + 1).join('');
      pieces.set(s, (pieces.get(s) ?? 0) + c);
    }
  }
  const pieceList = [...pieces].filter(([p, c]) => c >= options.minCount && !inVocab.has(p)).sort(byCount);
  for (const [w] of words) add(w);
  for (const [p] of pieceList) {
    if (vocab.length >= options.size) break;
    add(p);
  }
  return vocab;
}

/** The Hugging Face `tokenizer.json` of a vocabulary (WordPiece, BERT normaliser and pre-tokeniser). */
export function tokenizerJson(vocab: string[]): object {
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content, id) => ({
      id,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: true, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: null,
    decoder: { type: 'WordPiece', prefix: PREFIX, cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: PREFIX,
      max_input_chars_per_word: MAX_WORD_CHARS,
      vocab: Object.fromEntries(vocab.map((t, i) => [t, i])),
    },
  };
}

/**
 * The vocabulary of a `tokenizer.json` that is exactly `tokenizerJson(vocab)` (this module's
 * WordPiece: the trained models'), else null: its texts can then be encoded by
 * `WordPieceEncoder`, which gives the same ids as `@huggingface/tokenizers` (tested) several
 * times faster, a cache of words doing most of the work.
 */
export function ownWordPieceVocabulary(json: { model?: { vocab?: unknown } }): string[] | null {
  const vocab = json.model?.vocab;
  if (!vocab || typeof vocab !== 'object' || Array.isArray(vocab)) return null;
  const tokens: string[] = [];
  for (const [token, id] of Object.entries(vocab as Record<string, unknown>)) {
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || tokens[id] !== undefined) return null;
    tokens[id] = token;
  }
  for (let i = 0; i < tokens.length; i++) if (tokens[i] === undefined) return null;
  const withoutVocab = (j: object) => JSON.stringify({ ...j, model: { ...(j as { model: object }).model, vocab: null } });
  return withoutVocab(json) === withoutVocab(tokenizerJson(tokens)) ? tokens : null;
}

/** Whether a text holds one of the special tokens, which the Hugging Face tokenizer matches as written. */
export function mentionsSpecialToken(text: string): boolean {
  return text.includes('[') && SPECIAL_TOKENS.some((t) => text.includes(t));
}
