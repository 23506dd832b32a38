// The published server SDK (`@privy-io/node`) keeps an app's policies on our server (docs/policies.md): create
// with rules in the vendor's format, read, add / replace / remove a rule, rename, delete; a rule we cannot evaluate
// is refused with its reason (the SDK's BadRequestError); an owned policy changes only with the owner's authorization
// signature, which the SDK makes from the key it holds. No browser: what a host's back end does.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  AuthenticationError,
  BadRequestError,
  generateP256KeyPair,
  NotFoundError,
  PrivyClient,
} from "@privy-io/node";
import { useStack } from "../lib/stack.mjs";

const stack = useStack();
const SHOP = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

const host = () =>
  new PrivyClient({ appId: stack.appId, appSecret: stack.appSecret, apiUrl: stack.urls.api });

const capRule = (wei) => ({
  name: `at most ${wei} wei`,
  method: "*",
  action: "DENY",
  conditions: [{ field_source: "ethereum_transaction", field: "value", operator: "gt", value: String(wei) }],
});

test("a policy and its rules: create, read, add, replace, remove, rename, delete", async () => {
  const policies = host().policies();
  const created = await policies.create({
    version: "1.0",
    name: "Shop only",
    chain_type: "ethereum",
    rules: [
      {
        name: "pay the shop",
        method: "eth_sendTransaction",
        action: "ALLOW",
        conditions: [{ field_source: "ethereum_transaction", field: "to", operator: "eq", value: SHOP }],
      },
    ],
  });
  assert.equal(created.version, "1.0");
  assert.equal(created.owner_id, null);
  assert.equal(created.rules[0].conditions[0].value, SHOP);
  assert.deepEqual(await policies.get(created.id), created);

  const added = await policies.createRule(created.id, capRule(1000));
  assert.equal(added.name, "at most 1000 wei");
  assert.deepEqual(await policies.getRule(added.id, { policy_id: created.id }), added);
  const replaced = await policies.updateRule(added.id, { policy_id: created.id, ...capRule(2000) });
  assert.equal(replaced.id, added.id);
  assert.deepEqual(
    (await policies.get(created.id)).rules.map((r) => r.name),
    ["pay the shop", "at most 2000 wei"],
  );
  assert.deepEqual(await policies.deleteRule(added.id, { policy_id: created.id }), { success: true });

  const renamed = await policies.update(created.id, { name: "Shop, capped", rules: [capRule(5)] });
  assert.equal(renamed.name, "Shop, capped");
  assert.deepEqual(
    renamed.rules.map((r) => r.name),
    ["at most 5 wei"],
  );
  assert.deepEqual(await policies.delete(created.id, {}), { success: true });
  await assert.rejects(policies.get(created.id), NotFoundError);
});

test("a rule the server cannot evaluate is refused with its reason, and nothing is created", async () => {
  const attempt = host()
    .policies()
    .create({
      version: "1.0",
      name: "Solana swaps",
      chain_type: "ethereum",
      rules: [
        {
          name: "only Jupiter",
          method: "eth_sendTransaction",
          action: "ALLOW",
          conditions: [
            { field_source: "solana_program_instruction", field: "programId", operator: "eq", value: "JUP" },
          ],
        },
      ],
    });
  await assert.rejects(attempt, (error) => {
    assert.ok(error instanceof BadRequestError, String(error));
    assert.equal(
      error.error.error,
      'Rule "only Jupiter": field_source "solana_program_instruction" is not supported yet',
    );
    return true;
  });
});

test("an owned policy: the SDK signs its changes with the owner's key; without it they are refused", async () => {
  const privy = host();
  const owner = await generateP256KeyPair();
  const stranger = await generateP256KeyPair();
  const policy = await privy.policies().create({
    version: "1.0",
    name: "Owned",
    chain_type: "ethereum",
    rules: [capRule(10)],
    owner: { public_key: owner.publicKey },
  });
  assert.equal(typeof policy.owner_id, "string");
  const quorum = await privy.keyQuorums().get(policy.owner_id);
  assert.deepEqual(
    quorum.authorization_keys.map((k) => k.public_key),
    [owner.publicKey],
  );

  await assert.rejects(privy.policies().update(policy.id, { name: "Unsigned" }), AuthenticationError);
  await assert.rejects(
    privy.policies().update(policy.id, {
      name: "Stranger",
      authorization_context: { authorization_private_keys: [stranger.privateKey] },
    }),
    AuthenticationError,
  );
  const signed = { authorization_context: { authorization_private_keys: [owner.privateKey] } };
  const renamed = await privy.policies().update(policy.id, { name: "Signed", ...signed });
  assert.equal(renamed.name, "Signed");
  const rule = await privy.policies().createRule(policy.id, { ...capRule(20), ...signed });
  assert.deepEqual(await privy.policies().deleteRule(rule.id, { policy_id: policy.id, ...signed }), {
    success: true,
  });
  assert.deepEqual(await privy.policies().delete(policy.id, signed), { success: true });
});
