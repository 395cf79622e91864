/**
 * Answers "what does the contract say about the value at this path?" for the
 * drift report: follow an observed path (JSON pointer, `*` for array items)
 * through a schema of schemas/, across $refs between files and through
 * allOf/anyOf/oneOf. The answer is documented (with the node), open (the
 * contract does not show what lives here: a key-value store, an array of
 * objects whose fields are not shown) or undocumented (the contract lists the
 * fields of this object and this one is not among them).
 */
import { readSchemaFile, type SchemaName } from '../schemas/registry.ts';

export type SchemaNode = Record<string, unknown>;

export type PathVerdict =
  | { kind: 'documented'; node: SchemaNode }
  | { kind: 'open' }
  | { kind: 'undocumented'; parent: string };

/** Schema files read once: a walk per exchange (flis regress) would otherwise read the file from disk each step. */
const files = new Map<string, SchemaNode>();

function fileNode(name: string): SchemaNode {
  let node = files.get(name);
  if (!node) {
    node = readSchemaFile(name as SchemaName) as SchemaNode;
    files.set(name, node);
  }
  return node;
}

/** Resolves `$ref: "offer.schema.json"` or `"location.schema.json#/..."`-less refs (the schemas use whole-file refs). */
export function deref(node: SchemaNode): SchemaNode {
  let n = node;
  for (let i = 0; i < 10 && typeof n.$ref === 'string'; i++) {
    const m = (n.$ref as string).match(/^([\w-]+)\.schema\.json$/);
    if (!m?.[1]) break;
    n = { ...fileNode(m[1]), ...Object.fromEntries(Object.entries(n).filter(([k]) => k !== '$ref')) };
  }
  return n;
}

/** The node and its allOf/anyOf/oneOf branches, flattened, each dereferenced. */
function branches(node: SchemaNode): SchemaNode[] {
  const n = deref(node);
  const subs = ['allOf', 'anyOf', 'oneOf'].flatMap((k) => (Array.isArray(n[k]) ? (n[k] as SchemaNode[]) : []));
  return [n, ...subs.flatMap(branches)];
}

function properties(nodes: SchemaNode[]): Record<string, SchemaNode> | undefined {
  const lists = nodes
    .map((n) => n.properties)
    .filter((p): p is Record<string, SchemaNode> => typeof p === 'object' && p !== null);
  return lists.length ? Object.assign({}, ...lists) : undefined;
}

function items(nodes: SchemaNode[]): SchemaNode | undefined {
  return nodes.map((n) => n.items).find((i): i is SchemaNode => typeof i === 'object' && i !== null);
}

function segments(path: string): string[] {
  return path === ''
    ? []
    : path
        .slice(1)
        .split('/')
        .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
}

export function lookup(schema: SchemaName, path: string): PathVerdict {
  let node: SchemaNode = fileNode(schema);
  let at = '';
  for (const seg of segments(path)) {
    const nodes = branches(node);
    const next = seg === '*' ? items(nodes) : properties(nodes)?.[seg];
    if (next) {
      node = next;
      at += `/${seg}`;
      continue;
    }
    // The contract lists this object's fields and this is not one: drift. Anything else it does not constrain.
    if (
      seg !== '*' &&
      properties(nodes) &&
      !nodes.some((n) => n.additionalProperties && typeof n.additionalProperties === 'object')
    )
      return { kind: 'undocumented', parent: at };
    return { kind: 'open' };
  }
  return { kind: 'documented', node: deref(node) };
}

/** Every documented path of a schema (properties and array items, to a depth), for "documented but never seen". */
export function documentedPaths(schema: SchemaName, maxDepth = 6): string[] {
  const out: string[] = [];
  const visit = (node: SchemaNode, path: string, depth: number) => {
    if (depth > maxDepth) return;
    const nodes = branches(node);
    for (const [k, child] of Object.entries(properties(nodes) ?? {})) {
      const p = `${path}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      out.push(p);
      visit(child, p, depth + 1);
    }
    const it = items(nodes);
    if (it) visit(it, `${path}/*`, depth + 1);
  };
  visit(fileNode(schema), '', 0);
  return out;
}

/** Values a schema shows for a field without closing the list ("Values shown: Delivered; complete list not shown"). */
export function shownValues(node: SchemaNode): { values: string[]; closed: boolean } | undefined {
  if (Array.isArray(node.enum))
    return { values: node.enum.filter((v): v is string => typeof v === 'string'), closed: true };
  const m = typeof node.description === 'string' ? node.description.match(/Values shown: ([^;.]+)[;.]/) : null;
  return m?.[1]
    ? {
        values: m[1]
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
        closed: false,
      }
    : undefined;
}
