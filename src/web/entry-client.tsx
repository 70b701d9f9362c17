import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { BASENAME, routes } from './routes.tsx';
import './styles/app.css';

const router = createBrowserRouter(routes, {
  basename: BASENAME,
  hydrationData: (window as { __staticRouterHydrationData?: never }).__staticRouterHydrationData,
});

hydrateRoot(
  document.getElementById('root') as HTMLElement,
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
