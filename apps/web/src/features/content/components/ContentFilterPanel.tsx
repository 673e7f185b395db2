import { RSS_PLATFORMS } from "@curate/core";
import { XIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { Select, type SelectOption } from "#web/components/ui/select";
import {
  activeChips,
  CONTENT_SORTS,
  type ContentFilters,
  type ContentSort,
  DEFAULT_CONTENT_FILTERS,
  SORT_LABELS,
  sameFilters,
  withoutFilter,
} from "#web/features/content/filters";

const SORT_OPTIONS: ReadonlyArray<SelectOption<ContentSort>> = CONTENT_SORTS.map((value) => ({
  value,
  label: SORT_LABELS[value],
}));

const PLATFORM_OPTIONS: ReadonlyArray<SelectOption<ContentFilters["platform"]>> = [
  { value: "all", label: "all" },
  ...RSS_PLATFORMS.map((value) => ({ value, label: value })),
];

interface ContentFilterPanelProps {
  /** The filters the list shows now. */
  filters: ContentFilters;
  categories: readonly string[];
  onApply: (filters: ContentFilters) => void;
}

/** Sort, platform and category, chosen together and applied with Apply; Reset goes back to every item. */
export function ContentFilterPanel({ filters, categories, onApply }: ContentFilterPanelProps) {
  const [draft, setDraft] = useState(filters);
  const [applied, setApplied] = useState(filters);
  // Filters changed elsewhere (a chip, a category badge, the back button) replace the choices shown.
  if (!sameFilters(applied, filters)) {
    setApplied(filters);
    setDraft(filters);
  }
  const categoryOptions: ReadonlyArray<SelectOption<string>> = [
    { value: "", label: "all" },
    // A category from the address that no item carries any more stays choosable, so the select shows the truth.
    ...[...new Set([...categories, ...(draft.category ? [draft.category] : [])])].map((value) => ({
      value,
      label: value,
    })),
  ];

  return (
    <Card className="p-4">
      <form
        aria-label="Filter content"
        className="grid grid-cols-2 gap-3 sm:grid-cols-[repeat(3,minmax(0,12rem))_auto] sm:items-end"
        onSubmit={(event) => {
          event.preventDefault();
          onApply(draft);
        }}
      >
        <Select
          label="Sort By"
          value={draft.sort}
          options={SORT_OPTIONS}
          onValueChange={(sort) => setDraft({ ...draft, sort })}
        />
        <Select
          label="Platform"
          value={draft.platform}
          options={PLATFORM_OPTIONS}
          onValueChange={(platform) => setDraft({ ...draft, platform })}
        />
        <Select
          label="Category"
          value={draft.category}
          options={categoryOptions}
          onValueChange={(category) => setDraft({ ...draft, category })}
          className="col-span-2 sm:col-span-1"
        />
        <div className="col-span-2 flex gap-2 sm:col-span-1">
          <Button type="submit" className="flex-1 sm:flex-none">
            Apply
          </Button>
          <Button
            type="button"
            variant="secondary"
            className="flex-1 sm:flex-none"
            onClick={() => {
              setDraft(DEFAULT_CONTENT_FILTERS);
              onApply(DEFAULT_CONTENT_FILTERS);
            }}
          >
            Reset
          </Button>
        </div>
      </form>
    </Card>
  );
}

interface ActiveFilterChipsProps {
  filters: ContentFilters;
  onChange: (filters: ContentFilters) => void;
}

/** The filters in force, each removable on its own, and Clear all. Nothing at all when none is set. */
export function ActiveFilterChips({ filters, onChange }: ActiveFilterChipsProps) {
  const chips = activeChips(filters);
  if (chips.length === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <ul aria-label="Active filters" className="contents">
        {chips.map((chip) => (
          <li key={chip.key}>
            <span className="inline-flex items-center gap-1 rounded-full border border-indigo-200 bg-accent-soft py-0.5 pr-1 pl-2.5 text-xs font-medium text-accent-strong">
              {chip.label}
              <button
                type="button"
                aria-label={`Remove filter ${chip.label}`}
                className="inline-flex size-5 items-center justify-center rounded-full hover:bg-indigo-100"
                onClick={() => onChange(withoutFilter(filters, chip.key))}
              >
                <XIcon className="size-3" aria-hidden="true" />
              </button>
            </span>
          </li>
        ))}
      </ul>
      <Button
        variant="link"
        size="sm"
        className="h-auto px-1"
        onClick={() => onChange(DEFAULT_CONTENT_FILTERS)}
      >
        Clear all
      </Button>
    </div>
  );
}
