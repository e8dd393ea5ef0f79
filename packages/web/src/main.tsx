import { createRoot } from 'react-dom/client';
import { App } from '@/app/app.tsx';
import { noteStaticLoadingScreen } from '@/app/boot-splash.tsx';
import { primeSessionCheck } from '@/features/auth/hooks/use-check-session.ts';
import './index.css';

primeSessionCheck();

const root = document.getElementById('root');
if (root) {
  noteStaticLoadingScreen(root);
  createRoot(root).render(<App />);
}
