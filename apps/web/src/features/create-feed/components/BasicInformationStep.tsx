import { normaliseHashtag } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { ArrowRightIcon } from "lucide-react";
import { type FormEvent, useRef, useState } from "react";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { SectionHeader } from "#web/components/ui/section-header";
import { Textarea } from "#web/components/ui/textarea";
import { feedIdTakenQueryOptions } from "#web/features/create-feed/api";
import { feedDraftStore, useFeedDraft } from "#web/features/create-feed/draft-store";
import { HASHTAG_TAKEN, hasErrors, validateBasicInformation } from "#web/features/create-feed/validation";
import { ImageUpload } from "#web/features/feeds/components/ImageUpload";
import { useDebouncedValue } from "#web/lib/use-debounced-value";

export const HASHTAG_CHECK_DELAY_MS = 500;

type FieldName = "name" | "description" | "id";

/** Step 1: image, name, description and the hashtag that becomes the feed id. */
export function BasicInformationStep() {
  const draft = useFeedDraft();
  const navigate = useNavigate();
  const initialImage = useRef(draft.image).current;
  const [touched, setTouched] = useState<Record<FieldName, boolean>>({
    name: false,
    description: false,
    id: false,
  });

  const debouncedId = useDebouncedValue(draft.id, HASHTAG_CHECK_DELAY_MS);
  const idCheck = useQuery({ ...feedIdTakenQueryOptions(debouncedId), enabled: debouncedId !== "" });
  const validating = draft.id !== "" && (draft.id !== debouncedId || idCheck.isFetching);
  const taken = draft.id !== "" && draft.id === debouncedId && idCheck.data === true && !idCheck.isFetching;

  const errors = validateBasicInformation(draft);
  const idError = errors.id ?? (taken ? HASHTAG_TAKEN : undefined);
  const shown = (field: FieldName, message: string | undefined) => (touched[field] ? message : undefined);
  const touch = (field: FieldName) => setTouched((current) => ({ ...current, [field]: true }));

  function next(event: FormEvent) {
    event.preventDefault();
    setTouched({ name: true, description: true, id: true });
    if (validating || taken || hasErrors(errors)) return;
    void navigate({ to: "/create/feed/settings" });
  }

  return (
    <form onSubmit={next} noValidate className="flex flex-col gap-6">
      <SectionHeader title="Basic Information" />
      <Card className="flex flex-col gap-6 p-5 sm:p-6">
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-2 text-sm font-medium text-ink">Feed image</legend>
          <ImageUpload
            name={draft.name}
            initialImage={initialImage}
            value={draft.image}
            onChange={(image) => feedDraftStore.update({ image })}
          />
        </fieldset>
        <FormField label="Feed name" error={shown("name", errors.name)}>
          <Input
            value={draft.name}
            placeholder="e.g. Solar Weekly"
            autoComplete="off"
            onChange={(event) => feedDraftStore.update({ name: event.target.value })}
            onBlur={() => touch("name")}
          />
        </FormField>
        <FormField label="Description" error={shown("description", errors.description)}>
          <Textarea
            value={draft.description}
            placeholder="What will this feed collect, and for whom?"
            onChange={(event) => feedDraftStore.update({ description: event.target.value })}
            onBlur={() => touch("description")}
          />
        </FormField>
        <FormField
          label="Hashtag"
          hint="Curators submit to the feed with this hashtag; it is also the feed's id."
          error={taken ? HASHTAG_TAKEN : shown("id", idError)}
          prefix="#"
        >
          <Input
            value={draft.id}
            placeholder="solarweekly"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            className="pl-7"
            onChange={(event) => feedDraftStore.update({ id: normaliseHashtag(event.target.value) })}
            onBlur={() => touch("id")}
          />
        </FormField>
      </Card>
      <div className="flex justify-end">
        <Button type="submit" loading={validating}>
          {validating ? (
            "Validating..."
          ) : (
            <>
              Next
              <ArrowRightIcon aria-hidden="true" />
            </>
          )}
        </Button>
      </div>
    </form>
  );
}
