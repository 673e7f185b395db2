import {
  isTextSearch,
  MIN_TEXT_SEARCH_LENGTH,
  PLATFORM_LABELS,
  PLATFORMS,
  type SortOrder,
  type StatusFilter,
} from "@curate/core";
import { SearchIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Input } from "#web/components/ui/input";
import { Select, type SelectOption } from "#web/components/ui/select";
import type { SubmissionFilters as Filters } from "#web/features/submissions/api";
import { useDebouncedValue } from "#web/lib/use-debounced-value";

export const SEARCH_DEBOUNCE_MS = 300;

const SORT_OPTIONS: ReadonlyArray<SelectOption<SortOrder>> = [
  { value: "newest", label: "Most Recent" },
  { value: "oldest", label: "Oldest" },
];

const STATUS_OPTIONS: ReadonlyArray<SelectOption<StatusFilter>> = [
  { value: "all", label: "All" },
  { value: "pending", label: "Pending" },
  { value: "approved", label: "Approved" },
  { value: "rejected", label: "Rejected" },
];

const PLATFORM_OPTIONS: ReadonlyArray<SelectOption<Filters["platform"]>> = [
  { value: "all", label: "All" },
  ...PLATFORMS.map((platform) => ({ value: platform, label: PLATFORM_LABELS[platform] })),
];

interface SubmissionFiltersProps {
  filters: Filters;
  onChange: (patch: Partial<Filters>) => void;
}

export function SubmissionFilters({ filters, onChange }: SubmissionFiltersProps) {
  return (
    // Sized by the space the list has, not the window: Explore's middle column is narrower than a feed's tab.
    <div className="@container">
      <div className="grid grid-cols-2 gap-3 @lg:grid-cols-3 @3xl:grid-cols-[minmax(0,1fr)_9rem_9rem_9rem] @3xl:items-end">
        <SearchBox value={filters.q} onSearch={(q) => onChange({ q })} />
        <Select
          label="Sort By"
          value={filters.sortOrder}
          options={SORT_OPTIONS}
          onValueChange={(sortOrder) => onChange({ sortOrder })}
        />
        <Select
          label="Status"
          value={filters.status}
          options={STATUS_OPTIONS}
          onValueChange={(status) => onChange({ status })}
        />
        <Select
          label="Platform"
          value={filters.platform}
          options={PLATFORM_OPTIONS}
          onValueChange={(platform) => onChange({ platform })}
          className="col-span-2 @lg:col-span-1"
        />
        {filters.q && !isTextSearch(filters.q) ? (
          <p className="col-span-full -mt-1 text-xs text-muted" role="status" data-testid="short-search-hint">
            Showing posts by handles that start with “{filters.q.replace(/^@+/, "")}”. Type{" "}
            {MIN_TEXT_SEARCH_LENGTH} or more characters to search the text of posts.
          </p>
        ) : null}
      </div>
    </div>
  );
}

interface SearchBoxProps {
  value: string | undefined;
  onSearch: (q: string | undefined) => void;
}

/** Keeps typing local and reports it 300 ms after the last keystroke. */
function SearchBox({ value, onSearch }: SearchBoxProps) {
  const [text, setText] = useState(value ?? "");
  const debouncedText = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);
  const reported = useRef(value);
  const onSearchRef = useRef(onSearch);
  onSearchRef.current = onSearch;

  // A search changed elsewhere (back button, a link) replaces what the box shows.
  useEffect(() => {
    if (value !== reported.current) {
      reported.current = value;
      setText(value ?? "");
    }
  }, [value]);

  useEffect(() => {
    const next = debouncedText === "" ? undefined : debouncedText;
    if (next === reported.current) return;
    reported.current = next;
    onSearchRef.current(next);
  }, [debouncedText]);

  return (
    <div className="relative col-span-2 @lg:col-span-3 @3xl:col-span-1">
      <label htmlFor="submission-search" className="sr-only">
        Search submissions
      </label>
      <SearchIcon
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted"
        aria-hidden="true"
      />
      <Input
        id="submission-search"
        type="search"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder="Search submissions"
        className="pl-9"
      />
    </div>
  );
}
