// Prism's request pipeline (`factory` of @stoplight/prism-core 5.16.0's dist/factory.js) for a
// mock that never forwards, step for step: route, check security and then the request (their
// problems in that order), mock, check the response. Prism writes it with fp-ts's combinators,
// which allocated more per request than the mock's cached steps themselves cost;
// test/engine/pipeline.test.ts holds its results to Prism's own factory. Unlike Prism's, its
// result keeps the operation the router matched, which everything after it works with.
import type { Components, HttpConfig, Operation } from "./prism-adapter.js";

type Steps = Pick<
  Components,
  "route" | "validateSecurity" | "validateInput" | "mock" | "validateOutput" | "logger"
>;
type Resources = Parameters<Steps["route"]>[0]["resources"];
type Input = Parameters<Steps["route"]>[0]["input"];
type Output = Extract<ReturnType<ReturnType<Steps["mock"]>>, { _tag: "Right" }>["right"];
type Diagnostic = Extract<ReturnType<Steps["validateInput"]>, { _tag: "Left" }>["left"][number];

/** A request Prism's router refused (404, 405), or one it routed and then could not answer. */
type Refused = { _tag: "Left"; left: Error; operation: Operation | undefined };

/** The routing and the checks of a request, without its answer. */
type CheckResult =
  | Refused
  | { _tag: "Right"; operation: Operation; right: { input: Diagnostic[] } };

/** What Prism's `request` task resolves to, with the operation it reached. */
type PipelineResult =
  | Refused
  | {
      _tag: "Right";
      operation: Operation;
      right: { output: Output; validations: { input: Diagnostic[]; output: Diagnostic[] } };
    };

export interface Pipeline {
  /** Routes the request and checks its security and its parts, as `request` does first. */
  check(input: Input, resources: Resources, config: HttpConfig): CheckResult;
  /** What `request` resolves to, without a promise: every step is synchronous. */
  answer(input: Input, resources: Resources, config: HttpConfig): PipelineResult;
  request(input: Input, resources: Resources, config: HttpConfig): Promise<PipelineResult>;
}

/** The problems a validator found, or none. */
function found(result: { _tag: "Left"; left: Diagnostic[] } | { _tag: "Right" }): Diagnostic[] {
  return result._tag === "Left" ? result.left : [];
}

export function pipeline(steps: Steps): Pipeline {
  const { route, validateSecurity, validateInput, mock, validateOutput, logger } = steps;
  function check(input: Input, resources: Resources, config: HttpConfig): CheckResult {
    const routed = route({ resources, input });
    if (routed._tag === "Left") return { ...routed, operation: undefined };
    const operation = routed.right;
    const security = config.checkSecurity
      ? found(validateSecurity({ resource: operation, element: input }))
      : [];
    const request = config.validateRequest
      ? found(validateInput({ resource: operation, element: input }))
      : [];
    const problems = security.length === 0 ? request : [...security, ...request];
    return { _tag: "Right", operation, right: { input: problems } };
  }
  function answer(input: Input, resources: Resources, config: HttpConfig): PipelineResult {
    const checked = check(input, resources, config);
    if (checked._tag === "Left") return checked;
    const { operation } = checked;
    const inputProblems = checked.right.input;
    const mocked = mock({
      resource: operation,
      input: { data: input, validations: inputProblems },
      config: config.mock || {},
    })(logger.child({ name: "NEGOTIATOR" }));
    if (mocked._tag === "Left") return { ...mocked, operation };
    const output = mocked.right;
    const outputProblems = config.validateResponse
      ? found(validateOutput({ resource: operation, element: output }))
      : [];
    return {
      _tag: "Right",
      operation,
      right: { output, validations: { input: inputProblems, output: outputProblems } },
    };
  }
  return {
    check,
    answer,
    async request(input, resources, config) {
      return answer(input, resources, config);
    },
  };
}
