/** The three signing vectors of the interface (issue 3); the first is the published example. */
export const VECTORS = [
  {
    secret: "CXOlYKZgeSM3TpIyPwjSM84Ews2hARKi2m1MlLpnbI7UrF5bqtB2WQ3nW6Qh4vSJ",
    method: "POST",
    path: "/v1/transfers/register/",
    timestamp: "1713449845309",
    body: '{"client_id":null,"direction":"incoming","network":"ETH","tx_hash":"0x28138cd586826bbad08d1d0e64b566795b5907790ad30ebb0722948c2ba21d09","token_id":"usdt","output_address":"0x016606acc6b0cfe537acc221e3bf1bb44b4049ee"}',
    signature: "2dJYm8qkR8fCO3s7ZsSVBo1xKpLgx/eYAkewE82pyIs=",
  },
  {
    secret: "secret",
    method: "POST",
    path: "/v1/manual-checks/check-address/",
    timestamp: "1713449845309",
    body: '{"network":"TRX","address":"T1"}',
    signature: "chIVyDVHhWFEpjgBQ7vJRkKRLQS8HB15W3qVS83+z7Q=",
  },
  {
    secret: "secret",
    method: "GET",
    path: "/v1/manual-checks/42/",
    timestamp: "1713449845309",
    body: null,
    signature: "ruDQnT7jwsC3LoHUQGPTiAlQzTDK1QXobL7lMG1SDZw=",
  },
] as const;
