import { getCrossAppConnections } from "@symbolon/core";
import { useEffect, useState } from "react";
import { usePrivyContext } from "../provider/usePrivyContext";

/**
 * The provider apps' names of the `privy:{appId}` methods among `methods`, by method, from the
 * app's cross-app connections (fetched only when such a method is listed); empty until known.
 */
export function useCrossAppNames(methods: readonly string[]): Record<string, string> {
  const { client } = usePrivyContext("useCrossAppNames");
  const [names, setNames] = useState<Record<string, string>>({});
  const wanted = methods.some((m) => m.startsWith("privy:"));
  useEffect(() => {
    if (!client || !wanted) return;
    let live = true;
    getCrossAppConnections(client).then(
      (connections) => {
        if (!live) return;
        setNames(
          Object.fromEntries(connections.map((c) => [`privy:${c.provider_app_id}`, c.provider_app_name])),
        );
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [client, wanted]);
  return names;
}
