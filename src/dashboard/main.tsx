import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { startFirstLoad } from './app/first-load';
import { createRouter } from './app/router';
import './styles.css';

// the page's code, the session check and the page's data, asked for before React's first render
startFirstLoad(window.location);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RouterProvider router={createRouter()} />
  </StrictMode>,
);
