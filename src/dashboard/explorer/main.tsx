/** Entry of the GraphQL explorer (explorer.html), served at GET /graphql to browsers: a separate page from the dashboard. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Explorer } from './Explorer';
import { readExplorerConfig } from './config';
import 'graphiql/style.css';
import './explorer.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Explorer config={readExplorerConfig()} />
  </StrictMode>,
);
