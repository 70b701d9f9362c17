import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { routes } from './routes.tsx';
import './styles/app.css';

/**
 * The server's router state, from inert JSON at the end of <body> (not a script: the Content-Security-Policy
 * allows no inline script for it). Looked up as a direct child of <body>, where stored content cannot put anything.
 */
const hydrationElement = document.querySelector('body > script#signpost-hydration[type="application/json"]');
const hydrationData = hydrationElement?.textContent ? JSON.parse(hydrationElement.textContent) : undefined;

const router = createBrowserRouter(routes, { hydrationData });

hydrateRoot(
  document.getElementById('root') as HTMLElement,
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
