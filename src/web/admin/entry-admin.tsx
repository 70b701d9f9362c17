import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { ADMIN_BASE_PATH } from '../../shared/paths.ts';
import { loadAllMessages } from '../i18n/i18n.tsx';
import { routes } from './routes.tsx';
import './styles/admin.css';

// The branding page previews the public header in whichever language is picked, with no loader to wait on.
await loadAllMessages();

const router = createBrowserRouter(routes, { basename: ADMIN_BASE_PATH });

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
