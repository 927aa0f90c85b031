// Compile-time checks that keep the generated enum arrays and their union types in step.

/** `true` when `Values` lists every member of `Union`; otherwise names the missing members. */
export type ExactValues<Union, Values extends readonly Union[]> = [
  Exclude<Union, Values[number]>,
] extends [never]
  ? true
  : { missing: Exclude<Union, Values[number]> };

/** Compiles only when every check in the tuple is `true`. */
export type IsTrue<Checks extends readonly true[]> = Checks;
