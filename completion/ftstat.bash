# SPDX-License-Identifier: GPL-2.0-only
# bash completion for ftstat(8): options, event names for -e, files for -o.

_ftstat()
{
	local cur prev words cword
	_init_completion || return

	case $prev in
	-e | --event)
		# A comma-separated list: complete the name after the last comma.
		# The names are ftstat's own: it lists them for an unknown one.
		local done=${cur%"${cur##*,}"} events
		events=$("$1" -w -e '?' 2>&1 | sed -n 's/.*known events://p')
		COMPREPLY=($(compgen -P "$done" -W "$events" -- "${cur##*,}"))
		compopt -o nospace 2>/dev/null	# outside a completion (a test): no matter
		return
		;;
	-o | --output)
		_filedir prom
		return
		;;
	-x | --exec)
		COMPREPLY=($(compgen -c -- "$cur"))
		return
		;;
	-i | --interval | -c | --count | -t | --timeout | -T | --exec-timeout)
		return
		;;
	esac
	COMPREPLY=($(compgen -W "--json --rails --delays --prometheus --output --interval
		--watch --event --exec --exec-timeout --count --timeout --help --version" -- "$cur"))
} &&
	complete -F _ftstat ftstat
