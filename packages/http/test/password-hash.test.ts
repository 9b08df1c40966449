/** scrypt password hashes: a hash verifies its password only, keeps its cost, and refuses foreign text. */
import { describe, expect, it } from "vitest";
import { generatePassword, hashPassword, passwordProblem, verifyPassword } from "../src/index.js";

const FAST = { N: 1024, r: 8, p: 1 };

describe("password hashes", () => {
  it("verify the password they were made from and no other, with a fresh salt each time", async () => {
    const one = await hashPassword("correct horse battery", FAST);
    const two = await hashPassword("correct horse battery", FAST);
    expect(one).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(one).not.toBe(two);
    expect(await verifyPassword("correct horse battery", one)).toBe(true);
    expect(await verifyPassword("correct horse batterY", one)).toBe(false);
    expect(await verifyPassword("", one)).toBe(false);
  });

  it("keep their own cost: a hash made at another cost still verifies", async () => {
    const stronger = await hashPassword("correct horse battery", { N: 4096, r: 8, p: 1 });
    expect(stronger.startsWith("scrypt$4096$8$1$")).toBe(true);
    expect(await verifyPassword("correct horse battery", stronger)).toBe(true);
  });

  it("treat the same text in another Unicode form as the same password", async () => {
    const composed = await hashPassword("pass\u00e9word-long", FAST);
    expect(await verifyPassword("passe\u0301word-long", composed)).toBe(true);
  });

  it("refuse text that is not one of their hashes, without throwing", async () => {
    for (const text of [
      "",
      "plain",
      "scrypt$1024$8$1$c2FsdA==",
      "bcrypt$x$y",
      "scrypt$1024$8$1$c2FsdA==$c2hvcnQ=",
    ]) {
      expect(await verifyPassword("anything at all", text)).toBe(false);
    }
  });

  it("ask for at least 12 characters, and generate 20 that pass", async () => {
    expect(await passwordProblem("short")).toBe("must be at least 12 characters");
    expect(await passwordProblem("x".repeat(1025))).toBe("must be at most 1024 characters");
    const generated = generatePassword();
    expect(generated).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(await passwordProblem(generated)).toBeNull();
  });

  it("refuse blank, repeated, common and personal passwords (zxcvbn-ts)", async () => {
    expect(await passwordProblem(" ".repeat(12))).toBe("must not be blank");
    expect(await passwordProblem("\t \n".repeat(4))).toBe("must not be blank");
    for (const weak of [
      "aaaaaaaaaaaa",
      "x".repeat(40),
      "abcabcabcabc",
      "password1234",
      "Password123!",
      "qwertyuiop123",
      "123456789012",
    ]) {
      expect(await passwordProblem(weak), weak).toMatch(/^is too easy to guess \(/);
    }
    expect(await passwordProblem("admin@acme.test!", ["admin@acme.test", "admin", "acme"])).toMatch(
      /too easy/,
    );
    expect(await passwordProblem("correct horse battery staple")).toBeNull();
  });
});
