/**
 * Reads ../shared/SPEC.md, the contract with existing clients, into the tables the contract
 * test checks: resource field tables (name, type, required, nullable, default, rules) and the
 * endpoint tables (method, path, the statuses each row lists). Nothing here is typed by hand:
 * a change of the specification changes what the test asks of the service.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const SPEC_PATH = path.resolve(process.env.SPEC_PATH ?? path.join(process.cwd(), '../shared/SPEC.md'));

export type SpecType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'any';

export interface SpecField {
  name: string;
  /** The JSON types the field may take (without null). */
  types: SpecType[];
  /** Element type of an array, when the spec names it (`array of string`, `array of SearchHit`). */
  items: string | null;
  nullable: boolean;
  required: boolean;
  /** The default as text (`0.7`, `case_law`, `false`), or null. */
  default: string | null;
  rules: string;
}

export interface SpecEndpoint {
  section: string;
  method: string;
  path: string;
  request: string;
  response: string;
  /** Statuses the response column lists (`200 SearchResponse; 422 validation error` -> [200, 422]). */
  statuses: number[];
}

export interface Spec {
  text: string;
  /** Markdown tables under each `###`/`####` heading, in order. */
  tablesUnder(heading: string): string[][][];
  endpoints: SpecEndpoint[];
}

/** The rows of every markdown table in `block` (header row first, separator dropped). */
function tables(block: string): string[][][] {
  const out: string[][][] = [];
  let current: string[][] | null = null;
  for (const line of block.split('\n')) {
    if (!line.startsWith('|')) {
      current = null;
      continue;
    }
    const cells = line.slice(1, line.endsWith('|') ? -1 : undefined).split('|').map((c) => c.trim());
    if (cells.every((c) => /^-+$/.test(c))) continue;
    if (!current) out.push((current = []));
    current.push(cells);
  }
  return out;
}

/** The text from a heading to the next heading of the same or a higher level. */
function section(text: string, heading: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^#+ /.test(l) && l.replace(/^#+ /, '').trim() === heading);
  if (start < 0) throw new Error(`SPEC.md has no heading "${heading}"`);
  const level = lines[start]!.match(/^#+/)![0].length;
  const end = lines.findIndex((l, i) => i > start && /^#+ /.test(l) && l.match(/^#+/)![0].length <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

const STATUS = /\b([1-5]\d\d)\b/g;

export function loadSpec(file = SPEC_PATH): Spec {
  const text = readFileSync(file, 'utf8');
  const endpoints: SpecEndpoint[] = [];
  for (const heading of ['Search, documents, resolve', 'Discovery, statistics, contributors', 'Accounts', 'API keys and usage', 'Billing', 'Team', 'Administration']) {
    for (const table of tables(section(text, heading))) {
      const [header, ...rows] = table;
      if (header![0] !== 'Method' || header![1] !== 'Path') continue;
      for (const [methodCell, pathCell, request = '', response = ''] of rows) {
        for (const method of methodCell!.split(/ and /).map((m) => m.trim())) {
          endpoints.push({ section: heading, method, path: pathCell!, request, response, statuses: [...new Set([...response.matchAll(STATUS)].map((m) => Number(m[1])))] });
        }
      }
    }
  }
  return { text, tablesUnder: (heading) => tables(section(text, heading)), endpoints };
}

/** `string`, `integer or null`, `array of string or null`, `string (date, YYYY-MM-DD) or null`, `ISO 8601 timestamp`… */
export function parseType(cell: string): Pick<SpecField, 'types' | 'items' | 'nullable'> {
  const original = cell.replace(/\(.*?\)/g, '').trim();
  const text = original.toLowerCase();
  const nullable = /\bor null\b/.test(text) || /\bnull\b/.test(text);
  const base = text.replace(/\s*or null\b/, '').trim();
  const array = /^arrays? of (.+)$/i.exec(original.replace(/\s*or null\b/, '').trim());
  if (array) return { types: ['array'], items: array[1]!.trim(), nullable };
  if (base.startsWith('array')) return { types: ['array'], items: null, nullable };
  if (/timestamp|^string|^date/.test(base)) return { types: ['string'], items: null, nullable };
  if (base.startsWith('integer')) return { types: ['integer'], items: null, nullable };
  if (base.startsWith('number')) return { types: ['number'], items: null, nullable };
  if (base.startsWith('boolean')) return { types: ['boolean'], items: null, nullable };
  if (base.startsWith('object')) return { types: ['object'], items: null, nullable };
  return { types: ['any'], items: null, nullable };
}

/**
 * A resource table with a Field column (SearchRequest, SearchResponse, the usage record, the
 * SearchHit optional fields); `required` applies where the table has no Required column.
 */
export function fieldTable(rows: string[][], options: { required?: boolean } = {}): SpecField[] {
  const [header, ...body] = rows;
  const col = (name: string) => header!.findIndex((h) => h.toLowerCase() === name);
  const [field, type, required, def, rules] = ['field', 'type', 'required', 'default', 'rules'].map(col);
  return body.flatMap((row) =>
    row[field!]!.split(',').map((name) => ({
      name: name.trim(),
      ...parseType(row[type!]!),
      required: required! >= 0 ? row[required!] === 'yes' : (options.required ?? true),
      default: def! >= 0 && row[def!] ? row[def!]! : null,
      rules: rules! >= 0 ? row[rules!]! : '',
    })),
  );
}

/** Splits `text` at `separator` characters that are outside parentheses. */
function splitTopLevel(text: string, separator: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth += 1;
    if (ch === ')') depth -= 1;
    if (ch === separator && depth === 0) {
      out.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/**
 * A "Record | Fields" cell in prose form: `source_id (string, required); data_types (array of
 * string); … document_count (integer, default 0)`, `case_law_sources, legislation_sources, …
 * (integer, default 0 each)`, `countries: array of CountryInfo (required)`, `country (string),
 * sources (array of SourceInfo), both required`. Names before a parenthesis share it.
 */
export function proseFields(cell: string): SpecField[] {
  const allRequired = /\bboth required\b/.test(cell);
  const out: SpecField[] = [];
  let pending: string[] = [];
  const flush = (typeText: string, notes: string[]) => {
    const defaultNote = notes.find((n) => n.startsWith('default'));
    for (const name of pending) {
      out.push({
        name,
        ...parseType(typeText),
        required: allRequired || notes.includes('required'),
        default: defaultNote ? defaultNote.replace(/^default\s*/, '').replace(/\s*each$/, '') : null,
        rules: notes.join(', '),
      });
    }
    pending = [];
  };
  for (const segment of splitTopLevel(cell, ';')) {
    for (const chunk of splitTopLevel(segment, ',')) {
      if (chunk === 'both required') continue;
      const colon = /^(\w+):\s*([^(]+?)\s*(?:\((.*)\))?$/.exec(chunk);
      if (colon) {
        pending.push(colon[1]!);
        flush(colon[2]!, colon[3] ? colon[3].split(',').map((n) => n.trim()) : []);
        continue;
      }
      const paren = /^(\w+)\s*\((.*)\)$/.exec(chunk);
      if (!paren) {
        pending.push(chunk);
        continue;
      }
      pending.push(paren[1]!);
      const [first = '', ...rest] = paren[2]!.split(',').map((n) => n.trim());
      const typed = parseType(first).types[0] !== 'any';
      flush(typed ? first : '', typed ? rest : [first, ...rest]);
    }
    flush('', []);
  }
  return out;
}
