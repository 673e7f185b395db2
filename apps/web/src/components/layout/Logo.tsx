import { Link } from "@tanstack/react-router";

export function Logo() {
  return (
    <Link to="/" className="group inline-flex items-center gap-2.5 rounded-md" aria-label="Curate home">
      <svg viewBox="0 0 32 32" className="size-8" aria-hidden="true">
        <rect width="32" height="32" rx="7" className="fill-accent" />
        <path
          d="M21.5 11.2a7 7 0 1 0 0 9.6"
          fill="none"
          stroke="#fff"
          strokeWidth="3.2"
          strokeLinecap="round"
        />
        <circle cx="22" cy="16" r="2" fill="#fff" />
      </svg>
      <span className="font-display text-xl font-bold tracking-tight text-ink">Curate</span>
    </Link>
  );
}
