/**
 * A realistic-size store for plan checks, generated in SQL: transfers of one big and one small
 * account, alerts, jobs, and a ledger of many addresses over a year. Deterministic (md5 of the
 * row number), so plans are comparable from run to run.
 */

/** 2024-01-01T00:00:00Z. */
export const EXPLAIN_T0 = Date.UTC(2024, 0, 1);
/** The account holding 90% of the transfers. */
export const BIG_ACCOUNT = "acct-big";
/** The USDT contract the generated rows use as their token. */
export const USDT = "0xdac17f958d2ee523a2206206994597c13d831ec7";

/** An EVM-looking address of group `kind` and number `n` (SQL expression). */
const address = (kind: string, n: string) => `'0x' || substr(md5('${kind}' || (${n})), 1, 40)`;

/** SQL that fills the store's tables: `transfers` transfers, a tenth as many alerts and jobs, `ledger` ledger rows. */
export function explainDataSql(transfers: number, ledger: number): string {
  const checks = JSON.stringify({
    exposure: { state: "checked", at: EXPLAIN_T0 },
    counterparty: { state: "checked", at: EXPLAIN_T0 },
    sanctions: { state: "checked", at: EXPLAIN_T0 },
  });
  return `
insert into transfers (id, account_id, client_id, attempt_id, registered_at, network, token_id, token_symbol,
  direction, tx_status, tx_hash, occurred_at, input_address, output_address, amount, value_in_fiat,
  risk_level, risk_score, risk_model_id, risk_model_version, checks, disable_auto_check, exposure,
  counterparty, sanctions, counterparty_name, counterparty_category, last_error, updated_at)
select md5('t' || g), case when g % 10 = 0 then 'acct-small' else '${BIG_ACCOUNT}' end, 'client-' || (g % 2000), null,
  ${EXPLAIN_T0} + g * 60000, (array['ETH','ETH','TRX','BTC'])[1 + g % 4],
  case when g % 3 = 0 then '${USDT}' else 'native' end, case when g % 3 = 0 then 'USDT' else 'ETH' end,
  case when g % 2 = 0 then 'incoming' else 'outgoing' end, 'bound', '0x' || md5('h' || g) || md5('x' || g),
  ${EXPLAIN_T0} + g * 60000 - 30000, ${address("i", "g % 20000")}, ${address("o", "g % 10000")},
  (g % 1000) / 10.0, (g % 997) * 7.0,
  (array['none','none','none','none','none','none','low','low','medium','high','severe'])[1 + g % 11], 0,
  null, 'default@1', '${checks}', 0, null, null, null, 'Entity ' || (g % 50),
  (array['exchange','exchange','exchange','mixer','gambling','sanctions','scam','darknet_market','payment_service','defi'])[1 + g % 10],
  null, ${EXPLAIN_T0}
from generate_series(1::bigint, ${transfers}) g;

insert into alerts (id, account_id, transfer_id, dedupe_key, created_at, updated_at, risk_level, risk_type,
  risk_occurred_at, alert_status, entity_category, proximity, value_in_fiat, value_share, rule)
select md5('a' || g), '${BIG_ACCOUNT}', md5('t' || (g * 9 + 1)), 'k', ${EXPLAIN_T0} + g * 540000, null,
  (array['low','medium','high','severe'])[1 + g % 4],
  (array['origin_of_funds','sender_entity','recipient_entity','destination_of_funds'])[1 + g % 4],
  ${EXPLAIN_T0} + g * 540000, (array['open','open','open','in_progress','done'])[1 + g % 5],
  (array['mixer','gambling','sanctions','scam'])[1 + g % 4], (array['direct','indirect'])[1 + g % 2],
  100, 0.5, '{}'
from generate_series(1::bigint, ${Math.floor(transfers / 10)}) g;

insert into jobs (id, kind, account_id, subject_id, payload, run_at, attempts, lease_owner, lease_until, last_error, created_at)
select md5('j' || g), 'transfer.check', '${BIG_ACCOUNT}', md5('t' || g), '{}',
  ${EXPLAIN_T0} + g * 1000, 0, null, null, null, ${EXPLAIN_T0}
from generate_series(1::bigint, ${Math.floor(transfers / 10)}) g;

insert into ledger_transfers (network, tx_hash, log_index, token_id, from_address, to_address, amount, occurred_at, block, value_usd)
select case when g % 5 = 0 then 'TRX' else 'ETH' end, '0x' || md5('l' || g) || md5('y' || g), 0,
  case when g % 3 = 0 then '${USDT}' else 'native' end,
  ${address("a", "(g * 7919) % 100000")}, ${address("a", "(g * 104729) % 100000")},
  1 + (g % 100), ${EXPLAIN_T0} + g * 31536, null, null
from generate_series(1::bigint, ${ledger}) g;

analyze;
`;
}
