/**
 * How the public label sets' labels map to OpenKYT's entity categories. Only labels whose
 * meaning is clear are mapped; every other label is reported as skipped (counted per label),
 * never guessed. docs/data.md shows these tables.
 */
import { ENTITY_CATEGORIES, entityCategoryInfo } from "@openkyt/core";

/** The labels of a space-separated list. */
const words = (text: string): ReadonlyArray<string> => text.split(/\s+/).filter((w) => w !== "");

/** Builds a frozen label -> category table from category -> labels lists. */
function table(groups: Readonly<Record<string, ReadonlyArray<string>>>): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [category, labels] of Object.entries(groups)) {
    if (entityCategoryInfo(category) === undefined) throw new Error(`not a category: ${category}`);
    for (const label of labels) out[label] = category;
  }
  return Object.freeze(out);
}

/** dawsbot/eth-labels label slugs (Etherscan-family label clouds) to categories. */
export const ETH_LABELS_CATEGORIES = table({
  sanctions: words("ofac-sanctions-lists"),
  enforcement_action: words("blocked"),
  scam: words("phish-hack scam"),
  stolen_funds: words("heist exploit"),
  mixer: words("tornado-cash typhoon-cash typhoon-network ethereum-mixer"),
  gambling: words("gambling etheroll zethr"),
  exchange: words(`
    exchange binance coinbase kraken okx kucoin bitfinex bithumb gemini bitstamp bittrex poloniex
    gate-io crypto-com upbit korbit coinone bitmart bitget digifinex ascendex latoken coinsquare ftx
    hitbtc hotbit liquid coss-io coinhako paribu zb-com hoo-com bitmex deribit coinmetro cobinhood
    crex24 tidex topbtc yunbi allbit abcc bgogo quadrigacx uphold coinlist coin-list
  `),
  p2p_exchange: words("remitano"),
  dex: words(`
    dex uniswap sushiswap balancer bancor curve-fi kyberswap 0x-protocol 1inch burgerswap bscswap
    pancakeswap trader-joe camelot solidly cow-protocol airswap loopring paraswap tokenlon dydx
    swipeswap mdex ubeswap dex-ag dutchx switcheo idex mcdex
  `),
  lending: words(`
    aave compound maker cream-finance venus-protocol liquity dforce rari-capital fortube bzx
    nuo-network unit-protocol abracadabra-money inverse-finance alchemix-finance augmented-finance loans
  `),
  bridge: words(`
    bridge multichain hop-protocol wormhole across-protocol axelar connext celer-network synapse
    optimism-bridge optics
  `),
  mining_pool: words("mining miningpoolhub f2pool"),
  token_contract: words("token-contract bridged-token binance-pegged bitcoin-pegged wrapped-bitcoin"),
  nft_marketplace: words("opensea rarible looksrare blur-io superrare nifty-gateway zora sudoswap"),
  payment_service_provider: words("payments flexa fiat-gateway"),
  ico: words("ico-wallets token-sale"),
  marketplace: words("marketplace"),
});

/**
 * GraphSense TagPack `abuse` values (the INTERPOL abuse taxonomy) to categories. An abuse says
 * more about risk than the entity category, so a mapped abuse wins.
 */
export const TAGPACK_ABUSES = table({
  ransomware: words("ransomware"),
  scam: words("phishing scam ponzi_scheme pyramid_scheme investment_fraud sextortion"),
  stolen_funds: words("service_hack"),
  terrorist_financing: words("terrorism"),
  sanctions: words("sanction"),
});

/** GraphSense TagPack `category` values (the INTERPOL entity taxonomy and GraphSense concepts) to categories. */
export const TAGPACK_CATEGORIES = table({
  exchange: words("exchange"),
  gambling: words("gambling"),
  mixer: words("mixing_service"),
  privacy_protocol: words("coinjoin"),
  mining_pool: words("miner mining_pool"),
  marketplace: words("market"),
  dex: words("defi_dex"),
  lending: words("defi_lending"),
  bridge: words("defi_bridge bridge"),
  custodial_wallet: words("wallet_service"),
  payment_service_provider: words("payment_processor"),
  atm: words("atm"),
  ico: words("ico_wallet"),
  enforcement_action: words("black_list"),
});

const GROUP_RANK = Object.freeze({ system: 0, low: 1, medium: 2, high: 3, severe: 4 });
const RANK: ReadonlyMap<string, number> = new Map(
  ENTITY_CATEGORIES.map((c) => [c.code, GROUP_RANK[c.group]]),
);

/**
 * How strongly a category weighs when one address has several labels in one data set: severe 4,
 * high 3, medium 2, low 1, system 0 (the groups of the default risk model).
 */
export function categoryRank(category: string): number {
  return RANK.get(category) ?? 0;
}
