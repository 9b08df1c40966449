/**
 * The 43 entity category codes of the interface (public-facts §3.1), with a display name, a
 * one-line description, a colour for reports and the risk group used by the default model.
 */

/** How risky a category is in general; the default risk model is built from this grouping. */
export type CategoryGroup = "severe" | "high" | "medium" | "low" | "system";

/** One row of the category table. */
export interface EntityCategoryInfo {
  readonly code: string;
  readonly name: string;
  readonly description: string;
  readonly color: string;
  readonly group: CategoryGroup;
}

const rows: ReadonlyArray<readonly [string, string, CategoryGroup, string, string]> = [
  [
    "exchange_sanctioned_eu",
    "Exchange sanctioned by the EU",
    "high",
    "#B71C1C",
    "An exchange under EU sanctions.",
  ],
  [
    "exchange_sanctioned_us",
    "Exchange sanctioned by the US",
    "high",
    "#B71C1C",
    "An exchange under US (OFAC) sanctions.",
  ],
  [
    "exchange_sanctioned_gb",
    "Exchange sanctioned by the UK",
    "high",
    "#B71C1C",
    "An exchange under UK sanctions.",
  ],
  ["atm", "Crypto ATM", "low", "#607D8B", "A cryptocurrency ATM operator."],
  ["bridge", "Bridge", "low", "#455A64", "A cross-chain bridge contract or operator."],
  [
    "child_abuse_material",
    "Child abuse material",
    "severe",
    "#880E4F",
    "Transactions linked to distribution of illegal materials. Highest risk.",
  ],
  [
    "custodial_wallet",
    "Custodial wallet",
    "low",
    "#546E7A",
    "A hosted wallet service holding funds for its users.",
  ],
  ["dust", "Dust", "system", "#BDBDBD", "Tiny amounts sent to many addresses, usually unsolicited."],
  ["dex", "Decentralised exchange", "low", "#00838F", "A decentralised exchange or liquidity pool."],
  [
    "enforcement_action",
    "Enforcement action",
    "medium",
    "#E65100",
    "Funds subject to a law enforcement action or a token issuer's freeze.",
  ],
  ["fraud_shop", "Fraud shop", "high", "#C62828", "A shop selling stolen data, cards or fraud services."],
  ["gambling", "Gambling", "medium", "#F57C00", "An online gambling service."],
  [
    "high_risk_exchange",
    "High-risk exchange",
    "medium",
    "#EF6C00",
    "An exchange with weak or no KYC/AML controls.",
  ],
  [
    "high_risk_jurisdiction",
    "High-risk jurisdiction",
    "medium",
    "#EF6C00",
    "A service in a jurisdiction on the FATF high-risk lists.",
  ],
  [
    "iaas",
    "Infrastructure as a service",
    "low",
    "#78909C",
    "Hosting and infrastructure providers paid in crypto.",
  ],
  ["ico", "ICO", "medium", "#FFA000", "An initial coin offering."],
  ["illegal_service", "Illegal service", "high", "#D32F2F", "A service offering illegal goods or services."],
  ["lending", "Lending", "low", "#0097A7", "A lending protocol or service."],
  ["mining", "Mining", "low", "#8D6E63", "Mining rewards."],
  ["mining_pool", "Mining pool", "low", "#795548", "A mining pool."],
  ["mixer", "Mixer", "medium", "#E64A19", "A service that mixes funds to break their trail."],
  ["online_pharmacy", "Online pharmacy", "high", "#D84315", "An unlicensed online pharmacy."],
  ["other", "Other", "system", "#9E9E9E", "An identified entity of no other category."],
  [
    "payment_service_provider",
    "Payment service provider",
    "low",
    "#26A69A",
    "A payment processor or merchant service.",
  ],
  ["darknet_market", "Darknet market", "high", "#AD1457", "A darknet marketplace."],
  ["exchange", "Exchange", "low", "#1E88E5", "A regulated centralised exchange."],
  ["fee", "Fee", "system", "#CFD8DC", "Network or service fees."],
  ["nft_marketplace", "NFT marketplace", "low", "#5C6BC0", "A marketplace for non-fungible tokens."],
  ["sanctions", "Sanctions", "severe", "#4A148C", "An address on a sanctions list."],
  ["scam", "Scam", "high", "#C2185B", "A scam, phishing or drainer operation."],
  ["seized_funds", "Seized funds", "system", "#757575", "Funds seized by authorities."],
  ["smart_contract", "Smart contract", "low", "#3949AB", "A smart contract of no other category."],
  ["stolen_funds", "Stolen funds", "high", "#B71C1C", "Proceeds of hacks, exploits and thefts."],
  ["token_contract", "Token contract", "low", "#3F51B5", "A token's own contract."],
  [
    "undefined",
    "Undefined",
    "system",
    "#E0E0E0",
    "Funds whose origin or destination could not be explained.",
  ],
  ["unnamed_service", "Unnamed service", "system", "#90A4AE", "A service whose name is not known."],
  ["marketplace", "Marketplace", "low", "#7986CB", "An online marketplace."],
  ["p2p_exchange", "P2P exchange", "medium", "#FB8C00", "A peer-to-peer exchange."],
  [
    "privacy_protocol",
    "Privacy protocol",
    "medium",
    "#F4511E",
    "A protocol that hides the link between sender and recipient.",
  ],
  ["ransomware", "Ransomware", "high", "#880E4F", "Ransomware operators and payments."],
  ["personal_wallet", "Personal wallet", "low", "#4DB6AC", "A wallet of a known individual."],
  ["terrorist_financing", "Terrorist financing", "severe", "#311B92", "Funds linked to terrorist financing."],
  ["unnamed_wallet", "Unnamed wallet", "system", "#B0BEC5", "A wallet whose owner is not known."],
];

/** The category table, keyed by code, in the interface's order. */
export const ENTITY_CATEGORIES: ReadonlyArray<EntityCategoryInfo> = Object.freeze(
  rows.map(([code, name, group, color, description]) =>
    Object.freeze({ code, name, group, color, description }),
  ),
);

/** All category codes. */
export const ENTITY_CATEGORY_CODES: ReadonlyArray<string> = Object.freeze(
  ENTITY_CATEGORIES.map((c) => c.code),
);

const byCode = new Map(ENTITY_CATEGORIES.map((c) => [c.code, c]));

/** True when `code` is one of the 43 category codes. */
export function isEntityCategory(code: unknown): code is string {
  return typeof code === "string" && byCode.has(code);
}

/** The row of a category code, or undefined. */
export function entityCategoryInfo(code: string): EntityCategoryInfo | undefined {
  return byCode.get(code);
}

/** Category used for sanctioned addresses. */
export const SANCTIONS_CATEGORY = "sanctions";
/** Category used for the unexplained remainder of a trace. */
export const UNDEFINED_CATEGORY = "undefined";
