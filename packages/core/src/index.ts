export * from "./envelope.ts";
export * from "./explore.ts";
export * from "./feeds.ts";
export * from "./leaderboard.ts";
export * from "./submissions.ts";
export * from "./text.ts";
