/**
 * GraphQL Code Generator: typed documents for every operation in src/dashboard/**\/*.graphql,
 * generated from the committed supergraph (graphql/supergraph.graphql) into src/dashboard/gql/.
 * `npm run codegen` after changing an operation or the supergraph (`npm run compose`).
 */
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'graphql/supergraph.graphql',
  documents: ['src/dashboard/**/*.graphql'],
  ignoreNoDocuments: false,
  generates: {
    'src/dashboard/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false, gqlTagName: 'graphql' },
      config: {
        documentMode: 'string',
        enumsAsTypes: true,
        useTypeImports: true,
        skipTypename: true,
        avoidOptionals: { field: true, inputValue: false, object: true, defaultValue: false },
        scalars: { JSONObject: 'Record<string, unknown>', JSON: 'unknown', DateTimeISO: 'string' },
      },
    },
  },
};

export default config;
