"""Kit on Telegram: the owners' private chats and listed groups, through a bot.
(Nothing is imported here: the daemon reads kit/channels/telegram/config.py without loading
python-telegram-bot, which only kit/channels/telegram/transport.py imports.)"""
