import { ConstructionIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Card } from "#web/components/ui/card";
import { SectionHeader } from "#web/components/ui/section-header";
import { PageContainer } from "./PageContainer";

interface PlaceholderProps {
  title: string;
  /** The spec's fixed text for the page, or a short note of what will live here. */
  children?: ReactNode;
  actions?: ReactNode;
}

/**
 * A tidy stand-in for a route whose real screen is built later, so every route is reachable and titled.
 * Top-level pages own the document title and the h1.
 */
export function PlaceholderPage({ title, children, actions }: PlaceholderProps) {
  return (
    <PageContainer>
      <title>{`${title} · Curate`}</title>
      <section aria-labelledby="placeholder-title" className="flex flex-col gap-6">
        <SectionHeader as="h1" id="placeholder-title" title={title} actions={actions} />
        <PlaceholderBody>{children}</PlaceholderBody>
      </section>
    </PageContainer>
  );
}

/** The same stand-in inside a layout (feed, profile) whose header already holds the h1 and the title. */
export function PlaceholderSection({ title, children, actions }: PlaceholderProps) {
  return (
    <section aria-labelledby="placeholder-title" className="flex flex-col gap-5">
      <SectionHeader id="placeholder-title" title={title} actions={actions} />
      <PlaceholderBody>{children}</PlaceholderBody>
    </section>
  );
}

function PlaceholderBody({ children }: { children?: ReactNode }) {
  return (
    <Card className="flex flex-col items-center gap-3 border-dashed px-6 py-14 text-center">
      <span className="inline-flex size-11 items-center justify-center rounded-full bg-accent-soft text-accent">
        <ConstructionIcon className="size-5" aria-hidden="true" />
      </span>
      <div className="max-w-md text-sm text-muted">{children ?? "This page is on its way."}</div>
    </Card>
  );
}
