/* eslint-disable */
import * as types from './graphql';



/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "query Me {\n  me {\n    plan\n    workspace_role\n    user {\n      id\n      email\n      name\n      is_admin\n      email_verified\n      created_at\n    }\n    legal_acceptance {\n      accepted\n      terms_version\n      current_terms_version\n    }\n  }\n}": typeof types.MeDocument,
    "query Keys {\n  keys {\n    id\n    name\n    key_prefix\n    created_at\n    last_used_at\n    revoked\n  }\n}\n\nmutation CreateKey($name: String) {\n  createKey(name: $name) {\n    id\n    name\n    key_prefix\n    created_at\n    key\n  }\n}\n\nmutation RevokeKey($id: ID!) {\n  revokeKey(id: $id) {\n    id\n    status\n  }\n}": typeof types.KeysDocument,
};
const documents: Documents = {
    "query Me {\n  me {\n    plan\n    workspace_role\n    user {\n      id\n      email\n      name\n      is_admin\n      email_verified\n      created_at\n    }\n    legal_acceptance {\n      accepted\n      terms_version\n      current_terms_version\n    }\n  }\n}": types.MeDocument,
    "query Keys {\n  keys {\n    id\n    name\n    key_prefix\n    created_at\n    last_used_at\n    revoked\n  }\n}\n\nmutation CreateKey($name: String) {\n  createKey(name: $name) {\n    id\n    name\n    key_prefix\n    created_at\n    key\n  }\n}\n\nmutation RevokeKey($id: ID!) {\n  revokeKey(id: $id) {\n    id\n    status\n  }\n}": types.KeysDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Me {\n  me {\n    plan\n    workspace_role\n    user {\n      id\n      email\n      name\n      is_admin\n      email_verified\n      created_at\n    }\n    legal_acceptance {\n      accepted\n      terms_version\n      current_terms_version\n    }\n  }\n}"): typeof import('./graphql').MeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Keys {\n  keys {\n    id\n    name\n    key_prefix\n    created_at\n    last_used_at\n    revoked\n  }\n}\n\nmutation CreateKey($name: String) {\n  createKey(name: $name) {\n    id\n    name\n    key_prefix\n    created_at\n    key\n  }\n}\n\nmutation RevokeKey($id: ID!) {\n  revokeKey(id: $id) {\n    id\n    status\n  }\n}"): typeof import('./graphql').KeysDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
