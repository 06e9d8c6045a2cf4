"""Poker bot: no-limit Texas hold'em tables in Discord channels."""
