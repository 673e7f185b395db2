/** A recorded time in the given format, or a dash (read out as "Not yet") while there is none. */
export function DateText({ value, format }: { value: string | null; format: (value: string) => string }) {
  if (!value) {
    return (
      <>
        <span aria-hidden="true">—</span>
        <span className="sr-only">Not yet</span>
      </>
    );
  }
  return <time dateTime={value}>{format(value)}</time>;
}
