import { randomUUID } from "node:crypto";
import { answerQueue, type FakeAnswer, type ReceivedRequest, startFakeServer } from "./server.ts";

/**
 * A local Notion API (`{base}/v1/…`) speaking version 2025-09-03, where a database holds one or more data sources
 * and pages live in a data source: `POST /pages` under a `data_source_id` parent (a `database_id` parent only
 * while the database has a single data source, as Notion allows; with two or more it is refused), `PATCH
 * /pages/{id}` (pages.update), `GET /databases/{id}` (its `data_sources`, id and name) and `POST
 * /data_sources/{id}/query` (rich-text `equals` filters). Pages are checked against their data source's property
 * names and types and Notion's request limits, and refusals come as Notion's `{ object: "error", status, code,
 * message }`. Any other Notion-Version is refused.
 */

const NOTION_VERSION = "2025-09-03";

type PropertyType =
  | "title"
  | "rich_text"
  | "date"
  | "number"
  | "checkbox"
  | "multi_select"
  | "select"
  | "url"
  | "email"
  | "phone_number";

export interface FakeDatabase {
  id: string;
  /** Property name → type, as the database's data sources define them (each may have its own). */
  properties: Record<string, PropertyType>;
  /** Shared with the integration for reading only: writes are `restricted_resource`. */
  readOnly?: boolean;
  /** Its data sources; one, named "Items", with an id made from the database's, when not given. */
  dataSources?: Array<{ id: string; name: string; properties?: Record<string, PropertyType> }>;
}

export interface CreatedPage {
  id: string;
  url: string;
  databaseId: string;
  dataSourceId: string;
  // biome-ignore lint/suspicious/noExplicitAny: the page properties as sent, checked by assertion
  properties: Record<string, any>;
  /** Moved to the trash (`in_trash`, or the older `archived`, set by PATCH /v1/pages/{id}). */
  inTrash?: boolean;
}

const fail = (status: number, code: string, message: string): FakeAnswer => ({
  status,
  body: { object: "error", status, code, message, request_id: randomUUID() },
});

const plain = (id: string) => id.replace(/-/g, "").toLowerCase();

function validationError(path: string, problem: string): FakeAnswer {
  return fail(400, "validation_error", `body failed validation: body.properties.${path} ${problem}`);
}

/** Notion's checks on one property value; null when it passes. */
// biome-ignore lint/suspicious/noExplicitAny: a property value as sent
function checkValue(name: string, type: PropertyType, value: any): FakeAnswer | null {
  if (!value || typeof value !== "object" || !(type in value)) {
    return fail(400, "validation_error", `${name} is expected to be ${type}.`);
  }
  const inner = value[type];
  if (type === "title" || type === "rich_text") {
    if (!Array.isArray(inner)) return validationError(`${name}.${type}`, "should be an array");
    if (inner.length > 100)
      return validationError(
        `${name}.${type}.length`,
        `should be ≤ \`100\`, instead was \`${inner.length}\`.`,
      );
    for (const [i, item] of inner.entries()) {
      const content = item?.text?.content;
      if (typeof content !== "string")
        return validationError(`${name}.${type}[${i}].text.content`, "should be a string");
      if (content.length > 2000) {
        return validationError(
          `${name}.${type}[${i}].text.content.length`,
          `should be ≤ \`2000\`, instead was \`${content.length}\`.`,
        );
      }
    }
  }
  if (type === "multi_select") {
    if (!Array.isArray(inner)) return validationError(`${name}.multi_select`, "should be an array");
    if (inner.length > 100)
      return validationError(
        `${name}.multi_select.length`,
        `should be ≤ \`100\`, instead was \`${inner.length}\`.`,
      );
    for (const option of inner) {
      if (typeof option?.name !== "string" || option.name.includes(",") || option.name.length > 100) {
        return fail(400, "validation_error", `Invalid select option name: ${JSON.stringify(option?.name)}.`);
      }
    }
  }
  if (type === "select" && (inner?.name?.includes(",") || inner?.name?.length > 100)) {
    return fail(400, "validation_error", `Invalid select option name: ${JSON.stringify(inner.name)}.`);
  }
  if (type === "url" && (typeof inner !== "string" || inner.length > 2000))
    return validationError(`${name}.url`, "should be a string of at most 2000");
  if ((type === "email" || type === "phone_number") && (typeof inner !== "string" || inner.length > 200)) {
    return validationError(`${name}.${type}`, "should be a string of at most 200");
  }
  if (type === "number" && typeof inner !== "number")
    return validationError(`${name}.number`, "should be a number");
  if (type === "checkbox" && typeof inner !== "boolean")
    return validationError(`${name}.checkbox`, "should be a boolean");
  if (type === "date" && Number.isNaN(Date.parse(inner?.start)))
    return validationError(`${name}.date.start`, "should be an ISO 8601 date");
  return null;
}

export async function startFakeNotion(options: { token: string; databases: FakeDatabase[] }) {
  const pages: CreatedPage[] = [];
  /** pages.update calls: the page and the properties the update sent. */
  const updates: CreatedPage[] = [];
  const queue = answerQueue();
  const databases = new Map(options.databases.map((db) => [plain(db.id), db]));
  const sourcesOf = (db: FakeDatabase) =>
    db.dataSources ?? [{ id: `${plain(db.id).slice(0, 24)}00000000`, name: "Items" }];
  /** A data source by id, with its database and its properties. */
  const findSource = (id: string) => {
    for (const db of options.databases) {
      const source = sourcesOf(db).find((candidate) => plain(candidate.id) === plain(id));
      if (source) return { db, id: source.id, properties: source.properties ?? db.properties };
    }
    return null;
  };

  const notFound = (id: string) =>
    fail(
      404,
      "object_not_found",
      `Could not find database with ID: ${id}. Make sure the relevant pages and databases are shared with your integration.`,
    );

  const pageObject = (page: CreatedPage) => ({
    object: "page",
    id: page.id,
    created_time: new Date().toISOString(),
    parent: { type: "data_source_id", data_source_id: page.dataSourceId, database_id: page.databaseId },
    url: page.url,
    properties: page.properties,
    in_trash: page.inTrash ?? false,
    archived: page.inTrash ?? false,
  });

  type Source = NonNullable<ReturnType<typeof findSource>>;
  /** The data source a new page's parent names, or Notion's refusal. */
  // biome-ignore lint/suspicious/noExplicitAny: a parent as sent
  const parentOf = (parent: any): { source: Source } | { refused: FakeAnswer } => {
    if (parent?.type === "data_source_id" || (parent?.data_source_id && !parent?.type)) {
      const source = findSource(String(parent.data_source_id ?? ""));
      if (source) return { source };
      const message = `Could not find data_source with ID: ${parent.data_source_id}.`;
      return { refused: fail(404, "object_not_found", message) };
    }
    const db = databases.get(plain(String(parent?.database_id ?? "")));
    if (!db) return { refused: notFound(parent?.database_id) };
    const sources = sourcesOf(db);
    if (sources.length > 1) {
      const message = `Database ${parent.database_id} has multiple data sources; provide a data_source_id parent to create a page.`;
      return { refused: fail(400, "validation_error", message) };
    }
    return { source: { db, id: sources[0].id, properties: sources[0].properties ?? db.properties } };
  };

  const handle = (request: ReceivedRequest): FakeAnswer => {
    if (request.headers.authorization !== `Bearer ${options.token}`) {
      return fail(401, "unauthorized", "API token is invalid.");
    }
    if (request.headers["notion-version"] !== NOTION_VERSION) {
      return fail(400, "missing_version", "Notion-Version header failed validation.");
    }
    const queued = queue.next();
    if (queued) return queued;
    if (request.method === "POST" && request.path === "/v1/pages") {
      const parent = parentOf(request.body?.parent);
      if ("refused" in parent) return parent.refused;
      const { source } = parent;
      const { db } = source;
      if (db.readOnly) return fail(403, "restricted_resource", "Insufficient permissions for this endpoint.");
      const properties = request.body.properties ?? {};
      for (const [name, value] of Object.entries(properties)) {
        const type = source.properties[name];
        if (!type) return fail(400, "validation_error", `${name} is not a property that exists.`);
        const refused = checkValue(name, type, value);
        if (refused) return refused;
      }
      const id = randomUUID();
      const page: CreatedPage = {
        id,
        url: `https://www.notion.so/${plain(id)}`,
        databaseId: db.id,
        dataSourceId: source.id,
        properties,
      };
      pages.push(page);
      return { status: 200, body: pageObject(page) };
    }
    const pageUpdate = /^\/v1\/pages\/([\w-]+)$/.exec(request.path);
    if (request.method === "PATCH" && pageUpdate) {
      // pages.update: the given properties replace the page's, the others stay as they were.
      const page = pages.find((candidate) => plain(candidate.id) === plain(pageUpdate[1]));
      if (!page) {
        return fail(404, "object_not_found", `Could not find page with ID: ${pageUpdate[1]}.`);
      }
      const source = findSource(page.dataSourceId);
      if (source?.db.readOnly)
        return fail(403, "restricted_resource", "Insufficient permissions for this endpoint.");
      // Moving it to the trash (or back); a page already in the trash can only be restored.
      const trash = request.body?.in_trash ?? request.body?.archived;
      if (page.inTrash && trash !== false) {
        return fail(
          400,
          "validation_error",
          "Can't edit block that is archived. You must unarchive the block before editing.",
        );
      }
      if (typeof trash === "boolean") page.inTrash = trash;
      const properties = request.body?.properties ?? {};
      for (const [name, value] of Object.entries(properties)) {
        const type = source?.properties[name];
        if (!type) return fail(400, "validation_error", `${name} is not a property that exists.`);
        const refused = checkValue(name, type, value);
        if (refused) return refused;
      }
      page.properties = { ...page.properties, ...properties };
      if (Object.keys(properties).length > 0) updates.push({ ...page, properties });
      return { status: 200, body: pageObject(page) };
    }
    const database = /^\/v1\/databases\/([\w-]+)$/.exec(request.path);
    if (request.method === "GET" && database) {
      const db = databases.get(plain(database[1]));
      if (!db) return notFound(database[1]);
      return {
        status: 200,
        body: {
          object: "database",
          id: db.id,
          title: [],
          data_sources: sourcesOf(db).map(({ id, name }) => ({ id, name })),
        },
      };
    }
    const query = /^\/v1\/data_sources\/([\w-]+)\/query$/.exec(request.path);
    if (request.method === "POST" && query) {
      const source = findSource(query[1]);
      if (!source) return fail(404, "object_not_found", `Could not find data_source with ID: ${query[1]}.`);
      const { property, rich_text } = request.body?.filter ?? {};
      const results = pages.filter(
        (page) =>
          plain(page.dataSourceId) === plain(source.id) &&
          (property === undefined ||
            page.properties[property]?.rich_text
              ?.map((t: { text: { content: string } }) => t.text.content)
              .join("") === rich_text?.equals),
      );
      return {
        status: 200,
        body: {
          object: "list",
          results: results.slice(0, request.body?.page_size ?? 100).map(pageObject),
          next_cursor: null,
          has_more: false,
          type: "page_or_data_source",
        },
      };
    }
    return fail(400, "invalid_request_url", "Invalid request URL.");
  };

  const server = await startFakeServer(handle);
  return {
    baseUrl: server.url,
    requests: server.requests,
    pages,
    updates,
    failNext(status: number, code: string, message: string, headers?: Record<string, string>) {
      queue.push({ ...(fail(status, code, message) as { status: number; body: unknown }), headers });
    },
    reset() {
      pages.length = 0;
      updates.length = 0;
      server.requests.length = 0;
      queue.clear();
    },
    close: server.close,
  };
}
