// The one file that imports decimal.js. Its type declarations describe its CommonJS file, so
// TypeScript (NodeNext) types the default import as that file's exports object; Node's `import`
// loads decimal.mjs instead, whose default export is the Decimal class itself. Either way the
// class is found here, and typed as the declarations' class.
import decimalJs from "decimal.js";

type DecimalClass = typeof decimalJs.Decimal;
const loaded = decimalJs as unknown as DecimalClass & { Decimal?: DecimalClass };

export const Decimal: DecimalClass = loaded.Decimal ?? loaded;
export type Decimal = InstanceType<DecimalClass>;
