/**
 * Measures the two size rules of the codebase (issue #32): no source file over 400 lines and no
 * function over 80 lines, unless a `// size: <reason>` comment says why. The marker goes in the
 * file's header (before its first statement) for the file, or right above a function (or the
 * statement that holds it, e.g. `const table = () => …`) for that function: a declarative table,
 * a router that lists its routes, generated code. Lengths come from the TypeScript compiler's own
 * syntax tree, so a function is measured from its first to its last line, nested ones included.
 */
import ts from 'typescript';

export const MAX_FILE_LINES = 400;
export const MAX_FUNCTION_LINES = 80;

/** `// size: <reason>`: the reason must say something. */
const MARKER = /\/\/[ \t]*size:[ \t]*(\S.*)$/m;

export interface SizeFinding {
  file: string;
  /** 1-based line where the file or function starts. */
  line: number;
  /** The function's name (`Class.method`, `<anonymous>`), or null for the file itself. */
  name: string | null;
  lines: number;
  limit: number;
  /** The written reason when the marker exempts it, else null (an offender). */
  reason: string | null;
}

/** Every file and function of `text` over its limit, each with its reason when one is written. */
export function measureSource(file: string, text: string): SizeFinding[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const findings: SizeFinding[] = [];
  const fileLines = text.length === 0 ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (fileLines > MAX_FILE_LINES) {
    const headerEnd = source.statements.length > 0 ? source.statements[0]!.getStart(source) : text.length;
    findings.push({ file, line: 1, name: null, lines: fileLines, limit: MAX_FILE_LINES, reason: markerIn(text.slice(0, headerEnd)) });
  }
  const visit = (node: ts.Node): void => {
    if (isMeasuredFunction(node)) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > MAX_FUNCTION_LINES) {
        findings.push({ file, line: start + 1, name: functionName(node), lines, limit: MAX_FUNCTION_LINES, reason: functionMarker(node, text) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return findings;
}

type MeasuredFunction = ts.FunctionLikeDeclaration & { body: ts.Node };

function isMeasuredFunction(node: ts.Node): node is MeasuredFunction {
  const functionLike =
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node);
  // overload signatures and abstract methods have no body: nothing to measure
  return functionLike && (node as ts.FunctionLikeDeclaration).body !== undefined;
}

function markerIn(text: string): string | null {
  return MARKER.exec(text)?.[1]?.trim() ?? null;
}

/** The marker in the comments above the function, or above the statement that holds it. */
function functionMarker(node: ts.Node, text: string): string | null {
  for (let at: ts.Node | undefined = node; at && !ts.isSourceFile(at); at = at.parent) {
    for (const range of ts.getLeadingCommentRanges(text, at.getFullStart()) ?? []) {
      const reason = markerIn(text.slice(range.pos, range.end));
      if (reason) return reason;
    }
    if (ts.isStatement(at) || ts.isClassElement(at)) break;
  }
  return null;
}

/** A readable name: the declared one, the variable or property it is assigned to, or `<anonymous>`. */
function functionName(node: MeasuredFunction): string {
  const own = node.name && !ts.isComputedPropertyName(node.name) ? node.name.getText() : null;
  if (ts.isConstructorDeclaration(node)) return `${className(node)}.constructor`;
  if (ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)) {
    const owner = ts.isClassLike(node.parent) ? className(node) : null;
    return owner ? `${owner}.${own ?? '<computed>'}` : (own ?? '<computed>');
  }
  if (own) return own;
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && ts.isIdentifier(parent.name)) {
    return parent.name.text;
  }
  return '<anonymous>';
}

function className(node: ts.ClassElement): string {
  const owner = node.parent as ts.ClassLikeDeclaration;
  return owner.name?.text ?? '<class>';
}
