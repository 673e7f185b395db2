import type { ReactNode } from "react";

/**
 * What a list on this page shows while it loads and when it is empty: one box, the same height both ways, so the
 * sections below stay where they are when the answer comes (a click aimed at them while the list loaded landed
 * wherever the page had moved).
 */
export function ListNote({ loading = false, children }: { loading?: boolean; children: ReactNode }) {
  return (
    <p
      role={loading ? "status" : undefined}
      className="rounded-md border border-dashed border-line bg-surface px-4 py-8 text-center text-sm text-muted"
    >
      {children}
    </p>
  );
}
