import autocannon from "autocannon";
const [oldMod, newMod] = await Promise.all([
  import("/work/wt/old/packages/mock/dist/index.mjs"),
  import("/work/main/packages/mock/dist/index.mjs"),
]);
const stateful = process.argv[2] === "stateful";
const mocks = { old: await oldMod.startMock({ stateful }), new: await newMod.startMock({ stateful }) };
const run = (url) => new Promise((resolve) => autocannon({ url: url + "/customers", connections: 10, duration: 3, headers: { "x-api-key": "k" } }, (e, r) => resolve(r.requests.average)));
const totals = { old: [], new: [] }; await run(mocks.old.url); await run(mocks.new.url);
for (let round = 0; round < 8; round++) for (const name of ["old", "new"]) totals[name].push(await run(mocks[name].url));
console.log(stateful ? "stateful" : "stateless", totals);
await mocks.old.stop(); await mocks.new.stop();
