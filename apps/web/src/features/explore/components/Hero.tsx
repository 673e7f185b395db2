import { useQuery } from "@tanstack/react-query";
import { Skeleton } from "#web/components/ui/skeleton";
import { appConfigQueryOptions } from "#web/features/config/api";

export function Hero() {
  return (
    <section className="relative overflow-hidden border-b border-line bg-surface">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(60rem_20rem_at_50%_-4rem,var(--color-accent-soft),transparent)]"
      />
      <div className="relative mx-auto flex max-w-4xl flex-col items-center px-4 py-12 text-center sm:px-6 sm:py-16">
        <h1 className="text-4xl leading-[1.08] font-bold text-balance text-ink sm:text-5xl lg:text-6xl">
          Discover autonomous brands powered by curators and AI
        </h1>
        <SubmitHint />
      </div>
    </section>
  );
}

/** The command that turns a reply into a submission, naming this deployment's bot. */
function SubmitHint() {
  const { data: config, status } = useQuery(appConfigQueryOptions());
  return (
    <p className="mt-6 flex flex-wrap items-center justify-center gap-x-2 gap-y-2 text-base text-muted sm:text-lg">
      Start curating by replying to any post with
      <code
        className="inline-flex items-center gap-1.5 rounded-md border border-line bg-zinc-50 px-2.5 py-1 font-mono text-sm text-ink"
        data-testid="submit-hint"
      >
        !submit{" "}
        {status === "pending" ? (
          <Skeleton className="inline-block h-4 w-28" />
        ) : config ? (
          <span className="text-accent">@{config.botHandle}</span>
        ) : null}{" "}
        #feedId
      </code>
    </p>
  );
}
