/** bcoin 1.0.2 ships no types: the regtest tests use it untyped. */
declare module "bcoin";
