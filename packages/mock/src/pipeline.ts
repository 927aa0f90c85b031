// Prism's request pipeline (`factory` of @stoplight/prism-core 5.16.0's dist/factory.js) for a
// mock that never forwards, step for step: route, check security and then the request (their
// problems in that order), mock, check the response. Prism writes it with fp-ts's combinators,
// which allocated more per request than the mock's cached steps themselves cost;
// test/pipeline.test.ts holds its results to Prism's own factory.
import type { IHttpConfig, PrismHttpComponents } from "@stoplight/prism-http";

type Components = Pick<
  PrismHttpComponents,
  "route" | "validateSecurity" | "validateInput" | "mock" | "validateOutput" | "logger"
>;
type Resources = Parameters<Components["route"]>[0]["resources"];
type Input = Parameters<Components["route"]>[0]["input"];
type Output = Extract<ReturnType<ReturnType<Components["mock"]>>, { _tag: "Right" }>["right"];
type Diagnostic = Extract<
  ReturnType<Components["validateInput"]>,
  { _tag: "Left" }
>["left"][number];

/** What Prism's `request` task resolves to: its refusal, or the answer and what was found. */
export type PipelineResult =
  | { _tag: "Left"; left: Error }
  | {
      _tag: "Right";
      right: { output: Output; validations: { input: Diagnostic[]; output: Diagnostic[] } };
    };

export interface Pipeline {
  request(input: Input, resources: Resources, config: IHttpConfig): Promise<PipelineResult>;
}

/** The problems a validator found, or none. */
function found(result: { _tag: "Left"; left: Diagnostic[] } | { _tag: "Right" }): Diagnostic[] {
  return result._tag === "Left" ? result.left : [];
}

export function pipeline(components: Components): Pipeline {
  const { route, validateSecurity, validateInput, mock, validateOutput, logger } = components;
  return {
    async request(input, resources, config) {
      const routed = route({ resources, input });
      if (routed._tag === "Left") return routed;
      const resource = routed.right;
      const inputProblems = [
        ...(config.checkSecurity ? found(validateSecurity({ resource, element: input })) : []),
        ...(config.validateRequest ? found(validateInput({ resource, element: input })) : []),
      ];
      const mocked = mock({
        resource,
        input: { data: input, validations: inputProblems },
        config: config.mock || {},
      })(logger.child({ name: "NEGOTIATOR" }));
      if (mocked._tag === "Left") return mocked;
      const output = mocked.right;
      const outputProblems = config.validateResponse
        ? found(validateOutput({ resource, element: output }))
        : [];
      return {
        _tag: "Right",
        right: { output, validations: { input: inputProblems, output: outputProblems } },
      };
    },
  };
}
