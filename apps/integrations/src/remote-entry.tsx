import { Route, Routes } from 'react-router-dom';
import { NotFoundPage } from '@grove/web-ui';
import { MindbodySetupPage } from './features/mindbody-setup/MindbodySetupPage';
import './integrations.css';

/** The integrations remote's routes, mounted by the shell at /mindbody-setup/*. */
export default function IntegrationsRoutes() {
  return (
    <Routes>
      <Route index element={<MindbodySetupPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
