/**
 * One change between two versions of the OpenAPI document, classified for clients (regress/contract-diff.ts finds
 * them; the contract report and each partner's usage read them).
 */
export type ChangeClass = 'breaking' | 'compatible' | 'informational';

export interface ContractChange {
  id: string;
  class: ChangeClass;
  operationId: string;
  method: string;
  path: string;
  where: 'operation' | 'parameter' | 'request' | 'response' | 'document';
  /** JSON pointer into the request or response body (`*` for every array item), or the parameter's name. */
  pointer?: string;
  parameter?: { name: string; in: string };
  before?: string;
  after?: string;
  /** Enum values the new version still accepts (a narrowed request enum): a partner sending another one is hit. */
  allowed?: string[];
  message: string;
  /**
   * The shared schema the change is in (its name under #/components/schemas, of the old document): `pointer` is then
   * from the schema's root, `operationId`, `method` and `path` are empty, and `operations` lists every operation it
   * reaches, sorted.
   */
  component?: string;
  operations?: string[];
}
