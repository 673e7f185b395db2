/** The bot token the e2e Telegram fake accepts; a feed gets it only through its own secret store. */
export const E2E_TELEGRAM_TOKEN = "424242:AAH-e2e-telegram-token";
/** The channel the fake knows. */
export const E2E_TELEGRAM_CHAT = "@e2e_channel";
