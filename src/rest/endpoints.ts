/** The public REST endpoints, as listed in the manifest. */
export const PUBLIC_ENDPOINTS = [
  'POST /v1/search',
  'GET /v1/documents/{country}/{source_name}/{source_id}',
  'GET /v1/documents/{country}/{source_name}?source_id=',
  'GET /v1/discover/countries',
  'GET /v1/discover/countries/{code}/sources',
  'GET /v1/discover/sources/{source}/filters',
  'GET /v1/discover/courts',
  'GET /v1/stats',
  'GET /v1/manifest',
  'POST /graphql',
];
