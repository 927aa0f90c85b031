// What the money keeps in the store: the partner's settings (its rate table, the secret its quotes
// are signed with). Declared here, implemented by every store's transaction (src/store/).
import type { SettingName } from "../store/settings.js";

export interface MoneyRows {
  /** The setting's value; `lock` holds its row until the transaction ends. */
  setting(name: SettingName, lock?: boolean): Promise<string | undefined>;
  setSetting(name: SettingName, value: string): Promise<void>;
  /** Stores the value unless one is there already. */
  initSetting(name: SettingName, value: string): Promise<void>;
}
