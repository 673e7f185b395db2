import type { FeedArt } from "./images.ts";

/**
 * Hand-written demo material. Everything here is invented for Curate's demo: handles, projects and posts
 * only need to read like a real community feed, so the UI can be judged with believable data.
 */

export interface Topic {
  /** Complete posts, written to be read as-is; several run past the 240-character preview on purpose. */
  posts: string[];
  /** Short news-like statements that templates combine with takes, links and hashtags. */
  headlines: string[];
  takes: string[];
  links: string[];
  hashtags: string[];
}

export interface DemoFeedSpec {
  id: string;
  name: string;
  description: string;
  art: FeedArt;
  createdBy: string;
  admins: string[];
  createdDaysAgo: number;
  /** X handles allowed to approve by replying; a few are also curators, which gives auto-approvals. */
  approvers: string[];
  blacklist: string[];
  sourcePlugin: "@curatedotfun/twitter-source" | "@curate/x-source" | null;
  streamEnabled: boolean;
  pollingIntervalMs: number;
  telegramChannel: string | null;
  extraDistributor?: "discord" | "notion";
  aiSummary?: boolean;
  /** Relative share of submissions. */
  weight: number;
  /** Feeds a post here is plausibly cross-submitted to. */
  related: string[];
  topic: Topic;
}

export const NEAR_ACCOUNTS = [
  "alice.near",
  "bob.near",
  "carol.near",
  "dave.near",
  "erin.near",
  "felix.near",
  "grace.near",
] as const;

export const CURATORS = [
  "mira_onchain",
  "theo_reads",
  "kestrel_dev",
  "lena_parks",
  "0xjunebug",
  "quietalpha",
  "ravi_builds",
  "nadia_curates",
  "tomas_ferro",
  "aiko_signal",
  "bramwell_eth",
  "sol_sister",
  "devon_maps",
  "hexpilot",
  "ines_codes",
  "marcus_lowe",
  "cryptoclara",
  "owen_tinkers",
  "priya_ml",
  "zeke_onthe_chain",
  "yasmin_designs",
  "greenledger",
  "fernwood_labs",
  "jules_verified",
  "kofi_node",
  "lucia_research",
  "atlas_reader",
  "benji_bytes",
  "marguerite_v",
  "sam_ships",
  "drift_theory",
  "nora_opensrc",
  "felipe_dao",
  "wren_gg",
  "hana_carbon",
  "caspian_io",
  "ruthie_rust",
  "valentin_pub",
  "koda_labs",
  "isla_scans",
] as const;

export const AUTHORS = [
  "arcturus_labs",
  "blockbrief",
  "chainweekly",
  "delphi_notes",
  "ethan_writes_code",
  "fieldnotes_ai",
  "gridsignal",
  "helio_energy",
  "inkwell_ui",
  "juniper_vc",
  "kaleidoscope_gg",
  "lattice_dev",
  "mempool_mara",
  "nightshade_ops",
  "openpaper_xyz",
  "pixel_harbor",
  "quantfrog",
  "rowan_research",
  "saltmarsh_dao",
  "tessellate_hq",
  "umbra_privacy",
  "vanta_protocol",
  "wavelength_news",
  "xeno_bio",
  "yarrow_climate",
  "zephyr_compute",
  "amara_okafor",
  "bjorn_lindqvist",
  "camille_roux",
  "dmitri_volkov_dev",
  "elif_yilmaz",
  "farah_haddad",
  "gus_mendez",
  "hiro_tanaka_",
  "ivy_chen_ml",
  "jonas_becker",
  "keira_obrien",
  "liam_nakamura",
  "maya_patel_eng",
  "niko_rossi",
  "olga_ivanova",
  "pablo_ortega",
  "rina_sato",
  "stefan_kraus",
  "talia_cohen",
  "uma_krishnan",
  "viktor_hale",
  "wendy_zhao",
  "xavier_dubois",
  "yuki_mori",
  "zara_ahmed",
  "opencompute_org",
  "protocolpost",
  "solarpunk_daily",
  "typeface_club",
  "gamedev_digest",
  "labnotebook_bio",
  "nearweekly_fan",
  "shipit_devtools",
  "cipher_circle",
  "orbital_log",
  "commons_fund",
  "rollup_radar",
  "tensor_tavern",
  "forkandpatch",
  "kiln_carbon",
  "grid_and_glyph",
  "indie_quest_dev",
  "peerreview_dao",
  "shard_street",
  "terminal_joy",
  "zk_kitchen",
  "moonbase_notes",
  "quadratic_club",
  "defi_dispatch",
  "modelcard_mike",
  "repo_radar",
  "heatpump_hannah",
  "kerning_kai",
  "speedrun_sage",
] as const;

/** Curator notes that fit any feed. */
export const GENERIC_NOTES = [
  "Worth reading the whole thing.",
  "Great breakdown, clear and well sourced.",
  "Big if true, keeping an eye on this.",
  "This one deserves more attention.",
  "Good context for anyone new to the space.",
  "Solid thread, saving for later.",
  "Primary source, not a summary of a summary.",
  "Short and to the point.",
  "Strong take, curious what others think.",
  "Adds context to last week's discussion.",
  "Numbers check out, I looked at the repo.",
  "Useful resource, bookmark it.",
  "First-hand account from the team.",
  "A rare balanced take on this.",
  "Finally someone wrote this down properly.",
  "Good follow-up to the earlier announcement.",
] as const;

export const APPROVE_NOTES = [
  "Great find, thanks!",
  "Good source, approved.",
  "On topic and well written.",
  "Approved: fits the feed perfectly.",
  "Nice one, this will do well in the digest.",
] as const;

export const REJECT_NOTES = [
  "Duplicate of an earlier submission.",
  "Off-topic for this feed.",
  "Promotional content, not news.",
  "Source could not be verified.",
  "Low-effort post, please add context next time.",
  "Already covered in this week's roundup.",
  "Paywalled with no summary.",
] as const;

/** Takes that fit any topic, mixed with each topic's own. */
export const GENERIC_TAKES = [
  "Worth a read.",
  "This is a bigger deal than it looks.",
  "Curious how this plays out over the next quarter.",
  "Bookmarking this one.",
  "The details matter here, read past the headline.",
  "Quietly one of the most important updates this month.",
  "Good to see this finally shipping.",
] as const;

const cryptoNews: Topic = {
  posts: [
    "Stablecoin supply just crossed a new all-time high while spot volumes are flat. That divergence usually means capital is parking onchain and waiting, not leaving. Watching lending rates closely this week.",
    "A short thread on why the latest rollup outage was not a consensus failure: the sequencer stalled, the chain did not. Users could still force-include transactions through L1, it was just slow and expensive. The real lesson is that escape hatches need a UX, not just a spec. If nobody can find the button during an incident, the guarantee only exists on paper. 🧵",
    "Exchange reserves keep trending down. Self-custody is having a quiet renaissance and nobody is tweeting about it.",
    "Reminder that a token unlock schedule is public information. If you got surprised by one, that's on your research process, not on the market.",
    "Fee markets after the last upgrade: median L2 transaction is now under a cent during normal hours, spikes are shorter, and blob usage is finally steady instead of bursty. The interesting part is that cheaper blobs did not lead to spam, they led to more apps batching more often. Full charts in the post. https://blockbrief.io/research/blob-fees-q3",
    "Three things I'm watching this week: the custody rule comment period closing, two large DAO treasury votes, and whether funding rates stay negative into the weekend.",
    "Onchain data says retail is back on mobile wallets, offchain data says app store rankings agree. Rare moment where both sources line up. https://chainweekly.news/retail-returns",
  ],
  headlines: [
    "Bitcoin ETF inflows hit a four-week high",
    "Major exchange publishes proof-of-reserves with liabilities included for the first time",
    "Ethereum core devs set a tentative date for the next network upgrade",
    "Stablecoin issuer expands to three new regulated markets",
    "Lending protocol passes a vote to cap risky collateral after last month's volatility",
    "Regulators open a public consultation on crypto custody rules",
    "Layer 2 activity overtakes mainnet for the sixth month in a row",
    "A top DEX aggregator adds intent-based routing across five chains",
    "Bridge exploit post-mortem published: a misconfigured upgrade key, funds partially recovered",
    "Validator exits slow down as the staking queue clears",
    "Payment app adds native stablecoin transfers for merchants",
    "Onchain perps volume beats a centralized venue for the first time",
  ],
  takes: [
    "Markets have not priced this in yet.",
    "The boring infrastructure news is the real news.",
    "Transparency like this should be the minimum, not a headline.",
    "Regulatory clarity cuts both ways, read the fine print.",
  ],
  links: [
    "https://blockbrief.io/daily",
    "https://chainweekly.news/issue-212",
    "https://defidispatch.xyz/p/liquidity-report",
    "https://rollupradar.com/dashboard",
  ],
  hashtags: ["#crypto", "#bitcoin", "#ethereum", "#defi", "#stablecoins"],
};

const aiResearch: Topic = {
  posts: [
    "New paper shows that small models trained on carefully filtered synthetic data match models 5x their size on reasoning benchmarks, but only when the filtering model is itself strong. The bottleneck moved from data volume to verifier quality. https://arxiv.org/abs/2409.01873",
    "Evals are the new moat. Everyone can fine-tune; few teams can tell you whether the fine-tune actually got better at the thing their users care about.",
    "Long read, but the best explanation I've seen of why retrieval helps factuality much less than people assume: the model often retrieves the right passage and then ignores it when its prior disagrees. The authors measure this directly by swapping in counterfactual passages and checking whether answers follow the context. Spoiler: bigger models follow the context less, not more. Lots of implications for anyone building RAG products on top of frontier APIs.",
    "Open weights release today: 8B parameters, permissive license, 128k context, and a genuinely useful model card with known failure modes listed. More of this please.",
    "Reading group this week: mechanistic interpretability of in-context learning. Bring questions, the induction head section is dense.",
    "Hot take: most 'agent' benchmarks measure patience with flaky tools more than they measure planning.",
    "Great ablation study on tokenizers for code models. Byte-level fallback matters more than vocabulary size once you go past a few languages. https://openpaper.xyz/tokenizers-for-code",
  ],
  headlines: [
    "New benchmark measures how often models admit uncertainty instead of guessing",
    "Researchers release an open dataset of 2M permissively licensed code files with provenance",
    "Sparse mixture-of-experts model matches dense baseline at a third of the inference cost",
    "Study finds chain-of-thought faithfulness drops sharply on multi-step math",
    "Open-source speech model runs in real time on a laptop CPU",
    "Lab publishes a detailed model card with red-team results and known failure modes",
    "Distillation recipe closes most of the gap between 70B and 8B models on coding tasks",
    "Paper proposes a cheap way to detect benchmark contamination",
    "Vision-language model learns to read charts without OCR",
    "New interpretability tool maps features across layers of a production model",
    "Workshop on efficient inference announces its accepted papers",
  ],
  takes: [
    "Replication will be the real test.",
    "The appendix is better than the abstract.",
    "Nice to see negative results published.",
    "Compute-efficient research is the most underrated kind.",
  ],
  links: [
    "https://arxiv.org/abs/2410.05521",
    "https://arxiv.org/abs/2408.11142",
    "https://openpaper.xyz/weekly",
    "https://huggingface.co/blog/open-evals",
    "https://fieldnotes.ai/p/inference-costs",
  ],
  hashtags: ["#AI", "#MachineLearning", "#LLM", "#NLP", "#OpenSource"],
};

const openSource: Topic = {
  posts: [
    "Maintainer burnout is a supply chain risk. If your company depends on a library maintained by one person on weekends, that is a line item you forgot to budget for.",
    "Just merged my first PR into a project I've used for five years. The maintainers reviewed it within a day and explained every suggestion. This is how you grow contributors. 💚",
    "We moved our monorepo's CI from 40 minutes to 9 by caching the right things and deleting tests that tested the mocks. Write-up with the exact config: https://forkandpatch.dev/ci-diet",
    "A friendly reminder that 'open source' is a license, 'open development' is a culture, and 'open governance' is a structure. Projects can have any combination of the three, and users deserve to know which one they're getting before they build a company on top of it. Our new governance doc lays out how decisions are made, who can merge, and how a maintainer steps down. Feedback welcome: https://github.com/lattice-dev/governance",
    "Release notes that start with 'breaking changes' in bold at the top are an act of kindness.",
    "Small-but-mighty tool of the week: a CLI that explains why a dependency is in your lockfile and which path pulled it in. Saved me an afternoon.",
  ],
  headlines: [
    "Popular web framework announces a long-term support branch funded by sponsors",
    "Foundation launches a security fund paying maintainers for audits",
    "Linux kernel adds more Rust drivers in the latest merge window",
    "Package registry rolls out mandatory 2FA for top maintainers",
    "Database project relicenses back to a permissive license after community feedback",
    "Volunteer team ships a major accessibility overhaul of a docs generator",
    "GitHub survey: most OSS contributions now come from outside the core team",
    "Open-source maps project passes 10 million contributors",
    "A new reproducible-builds report covers 95% of a major distro",
  ],
  takes: [
    "Sustainable funding for maintainers should be the norm.",
    "Community-driven projects keep winning.",
    "Read the changelog, it's a masterclass.",
  ],
  links: [
    "https://github.com/lattice-dev/lattice/releases",
    "https://forkandpatch.dev/weekly",
    "https://opensource.guide/best-practices",
    "https://repo-radar.dev/trending",
  ],
  hashtags: ["#OpenSource", "#FOSS", "#GitHub", "#Rust", "#Linux"],
};

const climateTech: Topic = {
  posts: [
    "Heat pumps outsold gas furnaces again this quarter, and the cold-climate models are the fastest-growing segment. The 'they don't work in winter' argument is running out of road.",
    "Grid-scale batteries are now the default answer for evening peaks in several markets. The interesting shift: operators are bidding them as capacity, not just arbitrage. That changes the financing model completely. https://gridsignal.energy/storage-capacity",
    "Visited a community solar project this weekend: 400 households, no rooftop needed, bills down about 15%. The hardest part wasn't the panels, it was the paperwork for interconnection.",
    "Carbon removal needs boring, verifiable accounting more than it needs new technologies. A ton claimed should be a ton measured, monitored and reported by someone without a stake in the sale. The registries that get this right will be the ones buyers trust in five years, and the ones that don't will become case studies in greenwashing. Good overview of where MRV stands today: https://kilncarbon.org/mrv-2024",
    "Induction stove converts: what surprised you most? For me it was how fast water boils and how much cooler the kitchen stays in summer.",
    "Transmission is the climate story nobody wants to read. Generation is ready; the wires are not.",
  ],
  headlines: [
    "Offshore wind auction clears at record-low prices",
    "New sodium-ion battery line starts production for home storage",
    "City mandates all-electric new construction from next year",
    "Direct air capture pilot publishes a full year of measured removal data",
    "Solar plus storage becomes the cheapest new power in another region",
    "Study: e-bike subsidies cut car trips more than expected",
    "Green steel plant secures long-term offtake contracts",
    "Utility pilots vehicle-to-grid with school buses over the summer",
    "Geothermal startup drills its deepest well yet",
  ],
  takes: [
    "Deployment speed is the whole game now.",
    "Policy plus price is an unbeatable combo.",
    "Permitting reform would unlock 10x of this.",
  ],
  links: [
    "https://solarpunk.daily/briefing",
    "https://gridsignal.energy/weekly",
    "https://yarrowclimate.org/notes",
    "https://heliopower.news/report",
  ],
  hashtags: ["#ClimateTech", "#CleanEnergy", "#Solar", "#HeatPumps", "#Decarbonization"],
};

const design: Topic = {
  posts: [
    "Design systems fail when they're treated as a component library instead of a set of decisions. Document the why, and the components mostly take care of themselves.",
    "Spent the week auditing color contrast on our product. 37 issues, most of them grey text on white. Grey-on-white is the silent killer of readable interfaces.",
    "Variable fonts finally feel production-ready: one file, every weight, smaller bundles, and smooth transitions between heading and body styles. We replaced five font files with one and shaved 140 KB off the first load. Case study with before/after screenshots and the exact font-display settings we used: https://typeface.club/variable-in-production",
    "Empty states are onboarding. Every 'No items yet' screen is a chance to tell someone what to do next.",
    "Motion should explain, not decorate. If you can't say what an animation teaches the user, cut it.",
    "Loved this teardown of a banking app redesign, especially the part about reducing the number of decisions on the home screen. https://inkwell.design/teardowns/banking",
  ],
  headlines: [
    "Design tool adds native variables and modes for theming",
    "Open-source icon set passes 5,000 icons with consistent stroke widths",
    "Browser support for container queries is now universal",
    "Type foundry releases a free superfamily with 12 scripts",
    "Accessibility guidelines draft proposes new contrast algorithm",
    "Design systems survey: most teams now ship tokens as code",
    "A new CSS feature makes view transitions work across pages",
  ],
  takes: [
    "Craft still matters.",
    "Accessibility is design quality, not an add-on.",
    "Great reference for anyone building a design system.",
  ],
  links: [
    "https://inkwell.design/journal",
    "https://typeface.club/releases",
    "https://gridandglyph.studio/notes",
    "https://kerning.kai/blog/spacing",
  ],
  hashtags: ["#Design", "#UX", "#Typography", "#DesignSystems", "#A11y"],
};

const gaming: Topic = {
  posts: [
    "Indie game with a two-person team just hit 100k wishlists on a trailer made in a weekend. Marketing advice: show the core loop in the first five seconds.",
    "Speedrun community found a new skip that cuts 4 minutes off the any% route. The frame-perfect input window is 1/60th of a second and people are already hitting it consistently. 😮",
    "Game preservation needs more attention. Dozens of live-service games shut down every year and take their content with them: no offline mode, no archive, no way for a future player or researcher to experience what millions once played. Libraries preserve books; who preserves these? Good piece on the legal side: https://gamedev.digest/preservation",
    "Cozy games are the most competitive genre right now and nobody warned the cozy devs.",
    "Playtest tip: watch people play without saying anything. The moments you want to explain are your design bugs.",
  ],
  headlines: [
    "Handheld PC sales double year over year",
    "Studio open-sources its in-house level editor",
    "Game engine changes pricing after community backlash",
    "Indie showcase announces 40 titles for the summer event",
    "Esports league adds revenue sharing for teams",
    "Classic RPG gets a fan-made remaster with the original team's blessing",
    "Cloud gaming service expands to 20 new countries",
  ],
  takes: [
    "GG to the team.",
    "Indies keep carrying the industry.",
    "This is what players actually asked for.",
  ],
  links: ["https://gamedev.digest/news", "https://indiequest.dev/devlog", "https://kaleidoscope.gg/reviews"],
  hashtags: ["#Gaming", "#IndieDev", "#GameDev", "#Esports"],
};

const desci: Topic = {
  posts: [
    "Decentralized science is not about putting papers on a blockchain. It's about funding the experiments nobody funds and publishing the results nobody publishes.",
    "Our lab just posted the full dataset and analysis notebooks alongside the preprint. Anyone can rerun every figure. Reviewers can check our work without emailing us. https://labnotebook.bio/open-data",
    "Funding update for the longevity research DAO: 14 projects funded this year, 9 with published results, 3 negative results published on purpose. Negative results are data too, and a field that hides them keeps paying to rediscover the same dead ends. Our next round focuses on replication studies of widely cited work, with a budget reserved for the teams whose original results are being tested so they can participate rather than be audited from outside.",
    "Peer review takes months and pays reviewers nothing. Paying reviewers and publishing reviews openly is a small change with big effects.",
    "Patient-owned health data is the most underrated DeSci idea. People should be able to share data with researchers on their own terms.",
  ],
  headlines: [
    "Research DAO funds an open replication study of a landmark psychology result",
    "Preprint server adds open peer review with reviewer credit",
    "Community-funded rare disease study publishes first results",
    "New protocol tokenizes IP licensing for university labs",
    "Open lab notebooks project reaches 1,000 published experiments",
    "Study finds data sharing doubles citation rates",
  ],
  takes: [
    "Open science wins again.",
    "Incentives shape research, so fix the incentives.",
    "Replication is the foundation.",
  ],
  links: [
    "https://labnotebook.bio/blog",
    "https://peerreview.dao/proposals",
    "https://xenobio.science/notes",
  ],
  hashtags: ["#DeSci", "#OpenScience", "#Research", "#Biotech"],
};

const nearEcosystem: Topic = {
  posts: [
    "Chain signatures are quietly one of the most useful things on NEAR: one account controlling addresses on other chains without a bridge. Built a demo that swaps on two chains from one wallet in an afternoon.",
    "NEAR devhub office hours today: shipping smart contracts in Rust vs JS, gas profiling, and how to structure upgradeable contracts. Come with questions! 🚀",
    "If you're new to NEAR: named accounts (like yourname.near) are not a vanity feature. They make access keys, sub-accounts and permissions readable by humans. A function-call key that can only call one method on one contract with a gas allowance is a genuinely better security model for apps than 'sign everything with your seed phrase', and it is why so many onboarding flows here feel closer to a normal web login.",
    "Sharding progress report is out. Throughput numbers look great, but the part I liked most is the honest list of what's still hard.",
    "Weekly ecosystem roundup: 3 new grants, a wallet release with passkey support, and the BOS component gallery got a big search upgrade. https://nearweekly.fan/issue-88",
    "Small tip: use `near-cli-rs` interactive mode when exploring a new contract. It walks you through every method and argument.",
  ],
  headlines: [
    "NEAR protocol upgrade reduces block finality time",
    "New wallet adds passkey sign-in for NEAR accounts",
    "Ecosystem fund announces grants for AI agent infrastructure",
    "NEAR Intents volume crosses a new milestone",
    "Developer survey: Rust remains the top language for NEAR contracts",
    "Community hackathon winners announced with 60 projects submitted",
    "Data availability layer signs on two new rollups",
  ],
  takes: ["Builders keep building.", "Great UX is the best onboarding.", "The ecosystem is maturing fast."],
  links: ["https://near.org/blog", "https://nearweekly.fan/latest", "https://shardstreet.xyz/dev-notes"],
  hashtags: ["#NEAR", "#NEARProtocol", "#Web3", "#BuildOnNEAR"],
};

const devTools: Topic = {
  posts: [
    "Your local dev environment should start with one command. If onboarding a new engineer takes a day of setup, that's a bug in your tooling, not in your engineer.",
    "Profiling tip that saved us: flame graphs of the test suite, not just production. Half our CI time was spent in one JSON schema compiler called in a loop.",
    "We replaced three linters and a formatter with one tool. Lint time went from 48 s to 1.2 s, config went from four files to one, and the pre-commit hook is fast enough that nobody skips it anymore. Not everything is better (a couple of niche rules are missing), but the speed changes behaviour: people fix warnings instead of suppressing them. Details and the migration checklist: https://shipit.tools/blog/one-linter",
    "Type-safe SQL without an ORM is having a moment, and I'm here for it.",
    "Hot reload that actually preserves state is a productivity multiplier nobody puts on a slide.",
  ],
  headlines: [
    "JavaScript runtime ships built-in SQLite and test runner",
    "Terminal emulator adds GPU rendering and native splits",
    "Package manager cuts install times in half with a new resolver",
    "TypeScript compiler port promises 10x faster type checking",
    "Observability platform open-sources its query engine",
    "Popular editor adds multi-file refactoring with previews",
    "Container build tool adds reproducible image layers by default",
  ],
  takes: [
    "Fast tools change how people work.",
    "DX is a feature.",
    "Adopting this in our stack next sprint.",
  ],
  links: ["https://shipit.tools/changelog", "https://terminaljoy.dev/posts", "https://zephyr.compute/blog"],
  hashtags: ["#DevTools", "#TypeScript", "#DX", "#Programming"],
};

const privacy: Topic = {
  posts: [
    "Zero-knowledge proofs are finally fast enough for consumer devices. Proving age without revealing a birthday is no longer a research demo.",
    "Metadata is data. End-to-end encryption protects what you said, not who you said it to or when.",
    "Audit your browser extensions today. One of mine had quietly changed owners and picked up 'read and change all your data on all websites' in an update. Removed it, rotated a couple of passwords, and wrote a short checklist for the team: review permissions quarterly, prefer extensions from known publishers, and pin versions on managed machines. https://cipher.circle/extension-audit",
    "Privacy-preserving analytics is not an oxymoron. Aggregate, add noise, keep nothing you don't need.",
    "Passkeys adoption numbers are encouraging. Phishing-resistant by default is the right direction.",
  ],
  headlines: [
    "Messaging app adds post-quantum encryption to all chats",
    "ZK identity protocol passes independent audit",
    "Browser blocks third-party cookies by default in a new release",
    "Researchers disclose side-channel bug affecting popular hardware wallets",
    "Privacy-focused L2 launches testnet with shielded transfers",
    "Password manager publishes third-party security review",
  ],
  takes: [
    "Privacy is a feature users notice when it's gone.",
    "Patch your stuff.",
    "Good defaults beat good intentions.",
  ],
  links: ["https://cipher.circle/posts", "https://umbra.privacy/research", "https://zk.kitchen/recipes"],
  hashtags: ["#Privacy", "#Security", "#ZK", "#Cryptography"],
};

const space: Topic = {
  posts: [
    "Reusable rockets changed launch costs; reusable satellites buses might change everything after launch.",
    "Watching the lunar lander telemetry live was the most fun I've had on a Tuesday in years.",
  ],
  headlines: [
    "Small satellite constellation completes deployment",
    "Lunar lander mission sets launch window",
  ],
  takes: ["Ad astra."],
  links: ["https://orbital.log/missions"],
  hashtags: ["#Space", "#SpaceTech"],
};

const publicGoods: Topic = {
  posts: [
    "Quadratic funding round results are in: 180 projects funded, median grant small but the long tail is where the surprises live.",
    "Retroactive funding works best when impact is measurable. For infrastructure that's easier than for education, and we should be honest about that.",
  ],
  headlines: [
    "Public goods round opens applications for open-source infrastructure",
    "Matching pool for the next quadratic funding round doubles",
  ],
  takes: ["Fund what you use."],
  links: ["https://commons.fund/rounds", "https://quadratic.club/results"],
  hashtags: ["#PublicGoods", "#QuadraticFunding"],
};

export const FEED_SPECS: DemoFeedSpec[] = [
  {
    id: "cryptonews",
    name: "Crypto News",
    description:
      "The day's most important crypto and onchain news, curated by the community and free of shilling.",
    art: { initials: "CN", colors: ["#f7931a", "#b4410f"], mark: "rings" },
    createdBy: "alice.near",
    admins: ["bob.near"],
    createdDaysAgo: 88,
    approvers: ["mira_onchain", "cryptoclara", "bramwell_eth", "defi_dispatch"],
    blacklist: ["airdrop_hunter_9000", "pumpsignals_vip"],
    sourcePlugin: "@curatedotfun/twitter-source",
    streamEnabled: true,
    pollingIntervalMs: 60_000,
    telegramChannel: "@curate_cryptonews",
    aiSummary: true,
    weight: 15,
    related: ["near", "privacy", "desci"],
    topic: cryptoNews,
  },
  {
    id: "airesearch",
    name: "AI Research",
    description:
      "Papers, open models and honest evaluations from machine learning research, picked by practitioners.",
    art: { initials: "AI", colors: ["#7c3aed", "#2563eb"], mark: "dots" },
    createdBy: "carol.near",
    admins: ["dave.near"],
    createdDaysAgo: 84,
    approvers: ["priya_ml", "lucia_research", "aiko_signal"],
    blacklist: ["ai_hype_daily"],
    sourcePlugin: "@curatedotfun/twitter-source",
    streamEnabled: true,
    pollingIntervalMs: 60_000,
    telegramChannel: "@curate_ai_papers",
    aiSummary: true,
    weight: 15,
    related: ["opensource", "desci", "devtools"],
    topic: aiResearch,
  },
  {
    id: "near",
    name: "NEAR Ecosystem",
    description: "Launches, grants, developer tools and community updates from across the NEAR ecosystem.",
    art: { initials: "N", colors: ["#00c08b", "#0f766e"], mark: "hexagon" },
    createdBy: "bob.near",
    admins: ["alice.near", "erin.near"],
    createdDaysAgo: 80,
    approvers: ["kofi_node", "shard_street", "ravi_builds"],
    blacklist: [],
    sourcePlugin: "@curate/x-source",
    streamEnabled: true,
    pollingIntervalMs: 30_000,
    telegramChannel: "@near_curated",
    weight: 13,
    related: ["cryptonews", "devtools", "privacy"],
    topic: nearEcosystem,
  },
  {
    id: "opensource",
    name: "Open Source",
    description:
      "Releases, maintainers' stories and sustainability of the open-source software we all depend on.",
    art: { initials: "OS", colors: ["#16a34a", "#065f46"], mark: "triangles" },
    createdBy: "dave.near",
    admins: [],
    createdDaysAgo: 76,
    approvers: ["nora_opensrc", "ines_codes", "ruthie_rust"],
    blacklist: ["growthhacker_x"],
    sourcePlugin: "@curatedotfun/twitter-source",
    streamEnabled: true,
    pollingIntervalMs: 60_000,
    telegramChannel: "@opensource_digest",
    weight: 11,
    related: ["devtools", "airesearch", "publicgoods"],
    topic: openSource,
  },
  {
    id: "climatetech",
    name: "Climate Tech",
    description:
      "Clean energy, electrification and carbon removal: the tech and policy that actually cut emissions.",
    art: { initials: "CT", colors: ["#22c55e", "#0e7490"], mark: "leaf" },
    createdBy: "erin.near",
    admins: ["grace.near"],
    createdDaysAgo: 71,
    approvers: ["hana_carbon", "greenledger"],
    blacklist: [],
    sourcePlugin: "@curatedotfun/twitter-source",
    streamEnabled: true,
    pollingIntervalMs: 120_000,
    telegramChannel: "@climatetech_curated",
    weight: 9,
    related: ["desci", "publicgoods"],
    topic: climateTech,
  },
  {
    id: "design",
    name: "Design Inspiration",
    description: "Interfaces, type, motion and accessibility: thoughtful design work worth studying.",
    art: { initials: "DI", colors: ["#ec4899", "#8b5cf6"], mark: "diamond" },
    createdBy: "grace.near",
    admins: [],
    createdDaysAgo: 66,
    approvers: ["yasmin_designs", "lena_parks"],
    blacklist: [],
    sourcePlugin: "@curate/x-source",
    streamEnabled: true,
    pollingIntervalMs: 300_000,
    telegramChannel: null,
    extraDistributor: "notion",
    weight: 8,
    related: ["devtools", "gaming"],
    topic: design,
  },
  {
    id: "devtools",
    name: "Developer Tools",
    description: "Faster builds, better editors and the tools that make developers' days shorter.",
    art: { initials: "DT", colors: ["#0ea5e9", "#1e3a8a"], mark: "bars" },
    createdBy: "dave.near",
    admins: ["felix.near"],
    createdDaysAgo: 60,
    approvers: ["kestrel_dev", "benji_bytes", "sam_ships"],
    blacklist: [],
    sourcePlugin: "@curatedotfun/twitter-source",
    streamEnabled: true,
    pollingIntervalMs: 60_000,
    telegramChannel: "@devtools_weekly",
    weight: 9,
    related: ["opensource", "airesearch", "near"],
    topic: devTools,
  },
  {
    id: "gaming",
    name: "Gaming",
    description: "Indie gems, game design, speedruns and the business of games.",
    art: { initials: "GG", colors: ["#f43f5e", "#7e22ce"], mark: "squares" },
    createdBy: "felix.near",
    admins: [],
    createdDaysAgo: 52,
    approvers: ["wren_gg"],
    blacklist: ["free_skins_now"],
    sourcePlugin: "@curatedotfun/twitter-source",
    streamEnabled: false,
    pollingIntervalMs: 300_000,
    telegramChannel: "@indie_gaming_feed",
    extraDistributor: "discord",
    weight: 6,
    related: ["design", "devtools"],
    topic: gaming,
  },
  {
    id: "desci",
    name: "DeSci",
    description: "Decentralized science: open data, new funding models and research done in public.",
    art: { initials: "DS", colors: ["#14b8a6", "#4338ca"], mark: "waves" },
    createdBy: "carol.near",
    admins: ["alice.near"],
    createdDaysAgo: 47,
    approvers: ["lucia_research", "atlas_reader"],
    blacklist: [],
    sourcePlugin: "@curate/x-source",
    streamEnabled: true,
    pollingIntervalMs: 120_000,
    telegramChannel: "@desci_daily",
    weight: 6,
    related: ["airesearch", "climatetech", "publicgoods"],
    topic: desci,
  },
  {
    id: "privacy",
    name: "Privacy & Security",
    description: "Encryption, zero-knowledge, security research and practical privacy for everyday users.",
    art: { initials: "PS", colors: ["#334155", "#0f172a"], mark: "keyhole" },
    createdBy: "bob.near",
    admins: [],
    createdDaysAgo: 40,
    approvers: ["hexpilot", "isla_scans"],
    blacklist: [],
    sourcePlugin: "@curatedotfun/twitter-source",
    streamEnabled: true,
    pollingIntervalMs: 60_000,
    telegramChannel: "@privacy_watch",
    weight: 6,
    related: ["cryptonews", "near", "devtools"],
    topic: privacy,
  },
  {
    id: "publicgoods",
    name: "Public Goods",
    description: "Funding rounds, retro grants and the commons that everyone uses and few pay for.",
    art: { initials: "PG", colors: ["#eab308", "#c2410c"], mark: "sun" },
    createdBy: "erin.near",
    admins: [],
    createdDaysAgo: 21,
    approvers: ["felipe_dao"],
    blacklist: [],
    sourcePlugin: null,
    streamEnabled: false,
    pollingIntervalMs: 60_000,
    telegramChannel: null,
    weight: 1,
    related: ["opensource", "desci"],
    topic: publicGoods,
  },
  {
    id: "spacetech",
    name: "Space Tech",
    description: "Launches, satellites and the new space economy.",
    art: { initials: "ST", colors: ["#1e1b4b", "#6366f1"], mark: "orbit" },
    createdBy: "alice.near",
    admins: [],
    createdDaysAgo: 6,
    approvers: [],
    blacklist: [],
    sourcePlugin: null,
    streamEnabled: false,
    pollingIntervalMs: 60_000,
    telegramChannel: null,
    weight: 0,
    related: [],
    topic: space,
  },
];

/** Someone posting on a network other than X: the handle as the network shows it, and the name beside it. */
export interface NetworkPerson {
  handle: string;
  name: string;
}

/**
 * The demo's people on Bluesky, Mastodon and Telegram (authors of posts, and curators who `!submit` them), the
 * Telegram groups the bot reads, and the blogs feeds follow. All invented.
 */
interface NetworkCommunity {
  authors: NetworkPerson[];
  curators: NetworkPerson[];
}

export const NETWORK_PEOPLE: {
  bluesky: NetworkCommunity;
  mastodon: NetworkCommunity;
  telegram: NetworkCommunity & { chats: string[] };
  /** Blogs some feeds read through their RSS source, with the feeds they write for. */
  blogs: Array<{ title: string; host: string; author: string; feeds: string[] }>;
} = {
  bluesky: {
    authors: [
      { handle: "marisol.bsky.social", name: "Marisol Vega" },
      { handle: "devon-writes.bsky.social", name: "Devon Hart" },
      { handle: "priyaraman.dev", name: "Priya Raman" },
      { handle: "tomasz.bsky.social", name: "Tomasz Nowak" },
      { handle: "juniperlabs.bsky.social", name: "Juniper Labs" },
      { handle: "chidi.codes", name: "Chidi Okafor" },
      { handle: "harbor-notes.bsky.social", name: "Harbor Notes" },
      { handle: "elin.bsky.social", name: "Elin Berg 🌿" },
    ],
    curators: [
      { handle: "wren-reads.bsky.social", name: "Wren" },
      { handle: "ollie.bsky.social", name: "Ollie Brandt" },
      { handle: "sana-k.bsky.social", name: "Sana K." },
      { handle: "mira-onchain.bsky.social", name: "Mira" },
    ],
  },
  mastodon: {
    authors: [
      { handle: "ada@hachyderm.io", name: "Ada Lindqvist" },
      { handle: "kofi@fosstodon.org", name: "Kofi Mensah" },
      { handle: "lena@mastodon.social", name: "Lena Park" },
      { handle: "rustweekly@floss.social", name: "This Week in Rust" },
      { handle: "odile@scholar.social", name: "Dr. Odile Marchand" },
      { handle: "grid@climatejustice.social", name: "Grid Watch" },
    ],
    curators: [
      { handle: "noor@fosstodon.org", name: "Noor" },
      { handle: "piet@mastodon.social", name: "Piet de Vries" },
      { handle: "yuki@hachyderm.io", name: "Yuki Tanaka" },
    ],
  },
  telegram: {
    chats: ["cryptodigest_chat", "ai_papers_club", "near_builders", "opensource_lounge"],
    authors: [
      { handle: "maks_reads", name: "Maks Petrenko" },
      { handle: "ines_k", name: "Inês Carvalho" },
      { handle: "bao_tran", name: "Bao Tran" },
      { handle: "leila_m", name: "Leila M." },
      { handle: "gonzo_dev", name: "Gonzalo" },
    ],
    curators: [
      { handle: "anya_curates", name: "Anya" },
      { handle: "dmitri_b", name: "Dmitri B." },
      { handle: "zoe_links", name: "Zoë" },
    ],
  },
  blogs: [
    {
      title: "The Gradient Notebook",
      host: "gradientnotebook.io",
      author: "Ravi Menon",
      feeds: ["airesearch", "desci"],
    },
    {
      title: "Chain Letters",
      host: "chainletters.news",
      author: "Clara Osei",
      feeds: ["cryptonews", "near", "publicgoods"],
    },
    {
      title: "Open Source Weekly",
      host: "osweekly.dev",
      author: "Ines Duarte",
      feeds: ["opensource", "devtools", "privacy"],
    },
    { title: "Carbon & Code", host: "carbonandcode.org", author: "Hana Sato", feeds: ["climatetech"] },
    {
      title: "Pixel Margins",
      host: "pixelmargins.design",
      author: "Yasmin Adeyemi",
      feeds: ["design", "gaming"],
    },
  ],
};

/**
 * Approvers per network for some feeds, beside their X approvers: who may `!approve` / `!reject` by replying on
 * that network. A few also curate there, which gives auto-approvals.
 */
export const NETWORK_APPROVERS: Record<
  string,
  { bluesky?: string[]; mastodon?: string[]; telegram?: string[] }
> = {
  cryptonews: { bluesky: ["mira-onchain.bsky.social"], telegram: ["anya_curates"] },
  airesearch: { bluesky: ["sana-k.bsky.social"], mastodon: ["yuki@hachyderm.io"] },
  near: { telegram: ["dmitri_b"], bluesky: ["ollie.bsky.social"] },
  opensource: { mastodon: ["noor@fosstodon.org"], telegram: ["zoe_links"] },
  climatetech: { mastodon: ["piet@mastodon.social"] },
  devtools: { bluesky: ["wren-reads.bsky.social"], mastodon: ["noor@fosstodon.org"] },
};
