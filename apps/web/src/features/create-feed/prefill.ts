import { normaliseHashtag } from "@curate/core";
import { useNavigate } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { feedDraftStore } from "./draft-store";
import type { PrefillSearch } from "./prefill-search";

/**
 * Copies the search parameters into the draft once, then drops them from the address, so a reload keeps
 * what the user typed since instead of prefilling again. True once the draft holds them.
 */
export function usePrefillDraft(search: PrefillSearch): boolean {
  const navigate = useNavigate();
  const hasPrefill = Object.values(search).some((value) => value !== undefined);
  const [applied, setApplied] = useState(!hasPrefill);

  useEffect(() => {
    if (!hasPrefill) return;
    feedDraftStore.update((draft) => ({
      ...draft,
      name: search.name ?? draft.name,
      description: search.description ?? draft.description,
      id: search.id !== undefined ? normaliseHashtag(search.id) : draft.id,
      image: search.image ?? draft.image,
    }));
    setApplied(true);
    void navigate({ to: "/create/feed", search: {}, replace: true });
  }, [hasPrefill, search, navigate]);

  return applied;
}
