// Which of the guard's changes touch a partner's use: an operation it called (any status for a
// request change, only the statuses it got for a response change), a topic it received, and none
// of an operation it never called; breaking changes first.
import type { OpenApiDocument } from "@org/payments-spec";
import { describe, expect, it } from "vitest";
import { impactOf, type Usage } from "../src/impact/changes.js";

const json = (schema: object) => ({ content: { "application/json": { schema } } });

// biome-ignore lint/suspicious/noExplicitAny: the tests edit the documents as loose JSON
type Doc = Record<string, any>;

/** A tiny API: createThing (body `name`, answers 200 or 409 with a body), listThings, a topic enum. */
function api(change: (doc: Doc) => void = () => {}): OpenApiDocument {
  const doc: Doc = {
    openapi: "3.1.0",
    info: { title: "impact", version: "1" },
    paths: {
      "/things": {
        post: {
          operationId: "createThing",
          requestBody: json({ type: "object", properties: { name: { type: "string" } } }),
          responses: {
            "200": {
              description: "made",
              ...json({ type: "object", properties: { id: { type: "string" } } }),
            },
            "409": {
              description: "taken",
              ...json({ type: "object", properties: { why: { type: "string" } } }),
            },
          },
        },
        get: {
          operationId: "listThings",
          responses: {
            "200": {
              description: "things",
              ...json({
                type: "object",
                properties: { topic: { $ref: "#/components/schemas/Topic" } },
              }),
            },
          },
        },
      },
    },
    components: { schemas: { Topic: { type: "string", enum: ["ThingMade", "ThingGone"] } } },
  };
  change(doc);
  return doc as OpenApiDocument;
}

const usage = (operations: Usage["operations"], topics: Usage["topics"] = {}): Usage => ({
  operations,
  topics,
});
const created = usage({ createThing: { calls: 2, statuses: { "200": 2 } } });

describe("impactOf", () => {
  it("touches a partner that called the operation whose request breaks", () => {
    const next = api((doc) => {
      doc.paths["/things"].post.requestBody.content["application/json"].schema.required = ["name"];
    });
    const [change] = impactOf(api(), next, created);
    expect(change).toMatchObject({
      breaking: true,
      operation: "createThing",
      field: "name",
      used: "createThing (2 calls)",
    });
    expect(
      impactOf(api(), next, usage({ listThings: { calls: 1, statuses: { "200": 1 } } })),
    ).toEqual([]);
  });

  it("touches a response change only for a status the partner got", () => {
    const next = api((doc) => {
      doc.paths["/things"].post.responses["409"].content["application/json"].schema.properties = {};
    });
    expect(impactOf(api(), next, created)).toEqual([]);
    const conflicted = usage({ createThing: { calls: 3, statuses: { "200": 2, "409": 1 } } });
    expect(impactOf(api(), next, conflicted)).toMatchObject([
      { breaking: true, used: "createThing answering 409 (1 call)" },
    ]);
  });

  it("touches a change that names a topic the partner received, breaking changes first", () => {
    const next = api((doc) => {
      doc.components.schemas.Topic.enum = ["ThingMade"];
      doc.paths["/things"].post.requestBody.content["application/json"].schema.required = ["name"];
    });
    const received = usage(
      { createThing: { calls: 1, statuses: { "200": 1 } } },
      { ThingGone: { subscribed: true, delivered: 2 } },
    );
    expect(impactOf(api(), next, received)).toMatchObject([
      { breaking: true, used: "createThing (1 call)" },
      { breaking: false, summary: 'enum value "ThingGone" removed', used: "topic ThingGone" },
    ]);
    // A partner that never received the topic, nor called createThing, is touched by neither.
    expect(impactOf(api(), next, usage({}))).toEqual([]);
  });
});
