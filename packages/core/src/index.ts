export * from "./encoding.ts";
export * from "./envelope.ts";
export * from "./explore.ts";
export * from "./feeds.ts";
export * from "./leaderboard.ts";
export * from "./nep413.ts";
export * from "./submissions.ts";
export * from "./text.ts";
