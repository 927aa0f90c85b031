// uri-template-lite ships no types: what the mock uses of it.
declare module "uri-template-lite" {
  const uriTemplate: {
    URI: {
      Template: new (
        template: string,
      ) => { match(uri: string): Record<string, string | string[]> | null };
    };
  };
  export default uriTemplate;
}
