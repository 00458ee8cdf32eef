import type { HTMLAttributes } from 'react';
import './card.css';

/** A white panel with a soft border, the building block of dashboard screens. */
export function Card({ className, ...rest }: HTMLAttributes<HTMLElement>) {
  return <section className={['g-card', className].filter(Boolean).join(' ')} {...rest} />;
}
