import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { ADMIN_BASE_PATH } from '../../shared/paths.ts';
import { routes } from './routes.tsx';
import './styles/admin.css';

const router = createBrowserRouter(routes, { basename: ADMIN_BASE_PATH });

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
