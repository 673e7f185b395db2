import type { ListSearch } from "@curate/core";
import { LayersIcon, TrophyIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "#web/components/ui/button";
import { LazyDrawer } from "#web/components/ui/lazy-drawer";
import { FeedList } from "#web/features/feeds/components/FeedList";
import { TopCurators } from "#web/features/leaderboard/components/TopCurators";
import {
  type SubmissionFilters as Filters,
  submissionsHeadQueryOptions,
  submissionsInfiniteQueryOptions,
  toSubmissionFilters,
} from "#web/features/submissions/api";
import { SubmissionFilters } from "#web/features/submissions/components/SubmissionFilters";
import { SubmissionList } from "#web/features/submissions/components/SubmissionList";
import { formatTotal } from "#web/lib/format";
import { Hero } from "./Hero";

interface ExplorePageProps {
  search: ListSearch;
  onFiltersChange: (patch: Partial<Filters>) => void;
}

export function ExplorePage({ search, onFiltersChange }: ExplorePageProps) {
  const filters = toSubmissionFilters(search);

  return (
    <>
      <title>Explore · Curate</title>
      <Hero />
      <div className="mx-auto grid w-full max-w-7xl gap-8 px-4 py-8 sm:px-6 lg:grid-cols-[15rem_minmax(0,1fr)_17rem] lg:px-8 xl:grid-cols-[16rem_minmax(0,1fr)_19rem]">
        <SidePanel title="Feeds" className="hidden lg:block">
          <FeedList />
        </SidePanel>

        <section aria-labelledby="submissions-title" className="flex min-w-0 flex-col gap-5">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="submissions-title" className="text-2xl font-bold">
              All Submissions
            </h2>
            <div className="flex gap-2 lg:hidden">
              <PanelDrawer label="Feeds" icon={<LayersIcon aria-hidden="true" />} side="left">
                <FeedList />
              </PanelDrawer>
              <PanelDrawer
                label="Curators"
                title="Top Curators"
                icon={<TrophyIcon aria-hidden="true" />}
                side="right"
              >
                <TopCurators />
              </PanelDrawer>
            </div>
          </div>
          <SubmissionFilters filters={filters} onChange={onFiltersChange} />
          <SubmissionList
            options={submissionsInfiniteQueryOptions(filters)}
            headOptions={submissionsHeadQueryOptions(filters)}
            renderSummary={(total, capped) => (
              <p className="text-sm text-muted" data-testid="submission-total">
                {formatTotal(total, capped)} {total === 1 && !capped ? "submission" : "submissions"}
              </p>
            )}
          />
        </section>

        <SidePanel title="Top Curators" className="hidden lg:block">
          <TopCurators />
        </SidePanel>
      </div>
    </>
  );
}

function SidePanel({
  title,
  className,
  children,
}: {
  title: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <aside aria-label={title} className={className}>
      <div className="sticky top-24 flex max-h-[calc(100dvh-7rem)] flex-col rounded-md border border-line bg-surface shadow-xs">
        <h2 className="border-b border-line px-4 py-3 text-base font-semibold">{title}</h2>
        <div className="min-h-0 overflow-y-auto p-2">{children}</div>
      </div>
    </aside>
  );
}

interface PanelDrawerProps {
  label: string;
  title?: string;
  icon: ReactNode;
  side: "left" | "right";
  children: ReactNode;
}

/** On narrow screens the side panels live in drawers opened from buttons above the list. */
function PanelDrawer({ label, title, icon, side, children }: PanelDrawerProps) {
  return (
    <LazyDrawer
      title={title ?? label}
      side={side}
      className="[&>div:last-child]:p-3"
      trigger={(props) => (
        <Button variant="secondary" size="sm" {...props}>
          {icon}
          {label}
        </Button>
      )}
    >
      {children}
    </LazyDrawer>
  );
}
