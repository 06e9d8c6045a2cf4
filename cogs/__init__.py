"""Discord cogs: slash commands, buttons and modals (thin layer over bot.tables)."""
