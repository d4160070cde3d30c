import { createRoot } from 'react-dom/client';
// Copied from test/react/readme/Playground.tsx by run.sh.
import { App } from './Playground';

createRoot(document.getElementById('root')!).render(<App />);
