/**
 * People read "Stream transform 3: plugin name is required", not "outputs.stream.transform.2.plugin Too small:
 * expected string to have >=1 characters". These turn a config path and a validator's message into that.
 */
const SECTION_LABELS: Record<string, string> = {
  "outputs.stream.transform": "Stream transform",
  "outputs.stream.distribute": "Distributor",
  "outputs.recap": "Recap",
  sources: "Source",
  search: "search",
  "moderation.approvers": "Approvers",
  "moderation.blacklist": "Blacklist",
  transform: "transform",
  batchTransform: "batch transform",
  distribute: "distributor",
};

const FIELD_LABELS: Record<string, string> = {
  plugin: "plugin name",
  config: "config",
  name: "Feed name",
  description: "Description",
  image: "Image URL",
  id: "Hashtag",
  pollingIntervalMs: "Polling interval",
  pageSize: "page size",
  query: "query",
  schedule: "schedule",
  timezone: "timezone",
  enabled: "enabled",
};

export function fieldLabel(path: string): string {
  if (!path) return "";
  const parts = path.split(".");
  const labels: string[] = [];
  let index = 0;
  while (index < parts.length) {
    const rest = parts.slice(index);
    const sectionKey = Object.keys(SECTION_LABELS)
      .filter((key) => rest.slice(0, key.split(".").length).join(".") === key)
      .sort((a, b) => b.length - a.length)[0];
    if (sectionKey) {
      const width = sectionKey.split(".").length;
      const next = rest[width];
      if (next !== undefined && /^\d+$/.test(next)) {
        labels.push(`${SECTION_LABELS[sectionKey]} ${Number(next) + 1}`);
        index += width + 1;
      } else if (next !== undefined && sectionKey.startsWith("moderation.")) {
        // moderation.approvers.twitter.0: the platform's list, then the entry.
        const platform = next.charAt(0).toUpperCase() + next.slice(1);
        const entry = rest[width + 1];
        labels.push(
          entry !== undefined && /^\d+$/.test(entry)
            ? `${platform} ${SECTION_LABELS[sectionKey].toLowerCase()} entry ${Number(entry) + 1}`
            : `${platform} ${SECTION_LABELS[sectionKey].toLowerCase()}`,
        );
        index += width + (entry !== undefined && /^\d+$/.test(entry) ? 2 : 1);
      } else {
        labels.push(SECTION_LABELS[sectionKey]);
        index += width;
      }
      continue;
    }
    const part = parts[index];
    // The feed's own id and name read "Hashtag" and "Feed name"; a recap's are its ID and name.
    const nested = labels.length > 0 && (part === "id" || part === "name");
    labels.push(
      nested
        ? part === "id"
          ? "ID"
          : "name"
        : (FIELD_LABELS[part] ?? part.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase()),
    );
    index += 1;
  }
  const [first, ...others] = labels;
  return others.length ? `${first}: ${others.join(", ")}` : first;
}

/** A validator's own wording, when it leaked through, said the way the rest of the app says it. */
export function readableMessage(message: string): string {
  if (/^Too small: expected string to have >=1 characters?$/.test(message)) return "is required";
  if (/^Invalid input: expected string, received undefined$/.test(message)) return "is required";
  const tooBig = message.match(/^Too big: expected string to have <=(\d+) characters?$/);
  if (tooBig) return `must be at most ${tooBig[1]} characters`;
  return message;
}

/**
 * One issue as a sentence: "Stream transform 3: plugin name is required". A message that already names its field
 * ("Description is required") is said as it is, in the same words as beside the field.
 */
export function describeIssue(issue: { path: string; message: string }): string {
  const label = fieldLabel(issue.path);
  const message = readableMessage(issue.message);
  if (!label || message.toLowerCase().startsWith(label.toLowerCase())) return message;
  return message === "is required" || message.startsWith("must ")
    ? `${label} ${message}`
    : `${label}: ${message}`;
}
