/** The gateway's HTTP answers to operations it cannot pick: client errors, as Apollo Server gives them for a single graph. */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mountGraphql, type MountedGraphql } from './gateway.js';
import { schemaOnlyServices } from './subgraphs.js';

describe('POST /graphql: choosing the operation', () => {
  let server: Server;
  let door: MountedGraphql;
  let url: string;

  beforeAll(async () => {
    const app = express();
    door = await mountGraphql(app, { services: schemaOnlyServices(), subgraphUrls: {} });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  });

  afterAll(async () => {
    await door.stop();
    await new Promise((resolve) => server.close(resolve));
  });

  const post = async (body: unknown) => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as { errors?: { message: string; extensions?: { code?: string } }[]; data?: unknown } };
  };

  it('answers 400 with a GraphQL error when operationName names no operation of the document', async () => {
    const res = await post({ query: 'query Countries { __typename }', operationName: 'Missing' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ message: 'Unknown operation named "Missing".', extensions: expect.objectContaining({ code: 'OPERATION_RESOLUTION_FAILURE' }) })]);
  });

  it('answers 400 when the document has several operations and no operationName', async () => {
    const res = await post({ query: 'query A { __typename } query B { __typename }' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ message: 'Must provide operation name if query contains multiple operations.', extensions: expect.objectContaining({ code: 'OPERATION_RESOLUTION_FAILURE' }) })]);
  });

  it('runs the operation operationName picks', async () => {
    const res = await post({ query: 'query A { __typename } query B { __typename }', operationName: 'B' });
    expect(res).toEqual({ status: 200, body: { data: { __typename: 'Query' } } });
  });
});
