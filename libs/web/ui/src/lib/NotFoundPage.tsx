import { useNavigate } from 'react-router-dom';
import { MESSAGES } from '@grove/contracts';
import { Button } from './Button';
import './centered-screen.css';

/** The 404 screen (docs/product.md#not-found): 'OOPS.. PAGE NOT FOUND!' and a Go Back button. */
export function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <main className="g-centered-screen">
      <svg width="160" height="120" viewBox="0 0 160 120" aria-hidden="true">
        <ellipse cx="80" cy="108" rx="60" ry="8" fill="#dfeee4" />
        <rect x="74" y="50" width="12" height="58" rx="4" fill="#5b4636" />
        <circle cx="80" cy="40" r="30" fill="#3f9a67" />
        <circle cx="58" cy="52" r="18" fill="#2f7d52" />
        <circle cx="102" cy="52" r="18" fill="#2f7d52" />
        <text x="80" y="47" textAnchor="middle" fontSize="22" fontWeight="700" fill="#fff">
          ?
        </text>
      </svg>
      <h1 className="g-centered-screen__title">{MESSAGES.notFound}</h1>
      <Button onClick={() => navigate(-1)}>Go Back</Button>
    </main>
  );
}
