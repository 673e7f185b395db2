// @vitest-environment jsdom
import { curatorFields, DEFAULT_PAGE_SIZE, type Submission } from "@curate/core";
import { focusManager, onlineManager, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type SubmissionFilters,
  submissionsHeadQueryOptions,
  submissionsInfiniteQueryOptions,
} from "#web/features/submissions/api";
import { ANCHOR_ATTRIBUTE } from "#web/features/submissions/scroll-anchor";
import { SubmissionList } from "./SubmissionList";

const filters: SubmissionFilters = { status: "all", sortOrder: "newest", platform: "all" };

const submission = (n: number): Submission => ({
  tweetId: String(1_890_000_000_000_000_000n + BigInt(n)),
  platform: "twitter",
  userId: "1",
  username: "alice",
  authorDisplayName: null,
  authorProfileImage: null,
  content: `Post ${n}`,
  url: `https://x.com/alice/status/${n}`,
  media: null,
  createdAt: "2026-11-20T10:00:00.000Z",
  updatedAt: "2026-11-20T10:00:00.000Z",
  curatorId: "2",
  curatorUsername: "bob",
  ...curatorFields("bob"),
  curatorNotes: null,
  curatorTweetId: null,
  submittedAt: "2026-11-20T11:00:00.000Z",
  status: "pending",
  feeds: [],
  moderationHistory: [],
});

/** The server's list, newest first, and the pages the browser asked it for. */
let stored: Submission[];
let requestedPages: number[];

/** The one load-more sentinel of the list; `reach()` is the reader scrolling to the end. */
let sentinel: { reach: () => void } | undefined;

/** Where the window is scrolled; each entry is 100 px tall and the list starts at the top of the page. */
let scrollY: number;

beforeEach(() => {
  stored = Array.from({ length: 45 }, (_, index) => submission(100 - index));
  requestedPages = [];
  scrollY = 0;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      const query = new URL(url, "http://curate.test").searchParams;
      const page = Number(query.get("page"));
      requestedPages.push(page);
      const items = stored.slice(page * DEFAULT_PAGE_SIZE, (page + 1) * DEFAULT_PAGE_SIZE);
      const data = {
        items,
        pagination: {
          page,
          limit: DEFAULT_PAGE_SIZE,
          hasNextPage: (page + 1) * DEFAULT_PAGE_SIZE < stored.length,
          totalCount: stored.length,
        },
      };
      return new Response(JSON.stringify({ success: true, statusCode: 200, data }), { status: 200 });
    }),
  );
  vi.stubGlobal(
    "IntersectionObserver",
    class {
      private readonly callback: IntersectionObserverCallback;
      constructor(callback: IntersectionObserverCallback) {
        this.callback = callback;
      }
      observe() {
        sentinel = {
          reach: () => this.callback([{ isIntersecting: true } as IntersectionObserverEntry], this as never),
        };
      }
      disconnect() {
        sentinel = undefined;
      }
    },
  );
  // Layout in jsdom: the list's top and each entry's box follow from the scroll position and the entry's place.
  vi.spyOn(Element.prototype, "getBoundingClientRect").mockImplementation(function (this: Element) {
    const index = this.parentElement ? Array.from(this.parentElement.children).indexOf(this) : 0;
    const top = this.hasAttribute(ANCHOR_ATTRIBUTE) ? index * 100 - scrollY : -scrollY;
    return { top, bottom: top + 100, left: 0, right: 300, width: 300, height: 100, x: 0, y: top } as DOMRect;
  });
  vi.stubGlobal(
    "scrollBy",
    vi.fn((_x: number, y: number) => {
      scrollY += y;
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  focusManager.setFocused(undefined);
  onlineManager.setOnline(true);
});

function renderList() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <SubmissionList
        options={submissionsInfiniteQueryOptions(filters)}
        headOptions={submissionsHeadQueryOptions(filters)}
        renderItem={(item) => <p>{item.content}</p>}
      />
    </QueryClientProvider>,
  );
}

const shown = () =>
  within(screen.getByRole("list", { name: "Submissions" }))
    .getAllByRole("listitem")
    .map((item) => item.textContent);

/** Two pages on screen, as after the reader scrolled once to the end of the first. */
async function twoPagesLoaded() {
  renderList();
  await screen.findByText("Post 100");
  act(() => sentinel?.reach());
  await screen.findByText("Post 61");
  expect(requestedPages).toEqual([0, 1]);
  requestedPages = [];
}

const returnToTab = () =>
  act(() => {
    focusManager.setFocused(false);
    focusManager.setFocused(true);
  });

describe("a submission list that stays fresh", () => {
  it("asks for the first page alone on focus and merges new items on top, leaving later pages loaded", async () => {
    await twoPagesLoaded();
    stored = [submission(102), submission(101), ...stored];

    returnToTab();

    await waitFor(() => expect(shown().slice(0, 3)).toEqual(["Post 102", "Post 101", "Post 100"]));
    expect(requestedPages).toEqual([0]);
    // Every item loaded before is still there, once, with the two new ones above.
    expect(shown()).toHaveLength(42);
    expect(new Set(shown()).size).toBe(42);
    expect(shown().at(-1)).toBe("Post 61");
    expect(screen.getByTestId("list-announcer").textContent).toBe(
      "2 new submissions at the top of the list.",
    );
  });

  it("asks for the first page alone on reconnect", async () => {
    await twoPagesLoaded();
    stored = [submission(101), ...stored];

    act(() => {
      onlineManager.setOnline(false);
      onlineManager.setOnline(true);
    });

    await waitFor(() => expect(shown()[0]).toBe("Post 101"));
    expect(requestedPages).toEqual([0]);
  });

  it("keeps the entry the reader is looking at where it was when new items arrive above it", async () => {
    await twoPagesLoaded();
    // Scrolled down into the list: "Post 90" (the 11th entry) crosses the top of the viewport.
    scrollY = 1_050;
    const before = screen.getByText("Post 90").parentElement?.getBoundingClientRect().top;
    stored = [submission(102), submission(101), ...stored];

    returnToTab();

    await waitFor(() => expect(shown()[0]).toBe("Post 102"));
    expect(window.scrollBy).toHaveBeenCalledWith(0, 200);
    expect(screen.getByText("Post 90").parentElement?.getBoundingClientRect().top).toBe(before);
  });

  it("lets new items appear in sight while the top of the list is in view", async () => {
    await twoPagesLoaded();
    stored = [submission(101), ...stored];

    returnToTab();

    await waitFor(() => expect(shown()[0]).toBe("Post 101"));
    expect(window.scrollBy).not.toHaveBeenCalled();
  });
});
