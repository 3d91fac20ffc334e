/**
 * Apollo Server picks the operation of a document (`getOperationAST`) before it executes. For a
 * single schema, graphql-js then refuses a document where none could be picked and Apollo
 * answers 400 OPERATION_RESOLUTION_FAILURE; a gateway instead throws from its query planner,
 * which Apollo answers with a 500. This plugin gives the gateway the single graph's answer:
 * the same message graphql-js writes, the same code, HTTP 400.
 */
import { type ApolloServerPlugin, HeaderMap } from '@apollo/server';
import { ApolloServerErrorCode } from '@apollo/server/errors';
import { GraphQLError, Kind } from 'graphql';

export function operationResolutionPlugin<C extends object>(): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, document, request }) {
          if (operation) return;
          const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).length;
          const message = request.operationName
            ? `Unknown operation named "${request.operationName}".`
            : operations > 1
              ? 'Must provide operation name if query contains multiple operations.'
              : 'Must provide an operation.';
          throw new GraphQLError(message, {
            extensions: { code: ApolloServerErrorCode.OPERATION_RESOLUTION_FAILURE, http: { status: 400, headers: new HeaderMap() } },
          });
        },
      };
    },
  };
}
